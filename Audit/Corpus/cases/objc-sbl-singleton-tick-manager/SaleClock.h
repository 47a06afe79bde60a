#import <Foundation/Foundation.h>

extern NSString * const SaleClockDidTickNotification;

@interface SaleClock : NSObject
+ (instancetype)sharedClock;
- (void)resume;
- (void)pause;
@end
