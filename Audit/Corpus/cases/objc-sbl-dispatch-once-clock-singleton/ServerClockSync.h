#import <Foundation/Foundation.h>

@interface ServerClockSync : NSObject
+ (instancetype)sharedClockSync;
- (void)beginClockSync;
@end
