#import <Foundation/Foundation.h>

@interface AdRefreshTimer : NSObject
+ (AdRefreshTimer *)refreshTimerWithInterval:(NSTimeInterval)seconds target:(id)target selector:(SEL)selector;
- (void)invalidate;
@end
