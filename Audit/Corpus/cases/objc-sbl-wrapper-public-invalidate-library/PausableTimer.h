#import <Foundation/Foundation.h>

@interface PausableTimer : NSObject
+ (PausableTimer *)pausableTimerWithInterval:(NSTimeInterval)seconds target:(id)target selector:(SEL)selector;
- (void)pauseTimer;
- (void)resumeTimer;
- (void)invalidate;
@end
