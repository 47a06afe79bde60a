// Seed 003, the fix: an NSTimer category that puts an intermediate object between the timer and the
// target; the object holds both weakly and invalidates the timer once the target is gone.
// expect-none
#import <Foundation/Foundation.h>

@interface NSTimer (Intermediate)
+ (NSTimer *)scheduledIntermediateTimerWithTimeInterval:(NSTimeInterval)ti target:(id)aTarget selector:(SEL)aSelector userInfo:(id)userInfo repeats:(BOOL)yesOrNo;
@end

@interface TimerIntermediateObject : NSObject
@property (nonatomic, weak) NSTimer *timer;
@property (nonatomic, weak) id target;
@property (nonatomic, assign) SEL selector;
- (void)fire:(NSTimer *)timer;
@end

@implementation NSTimer (Intermediate)
+ (NSTimer *)scheduledIntermediateTimerWithTimeInterval:(NSTimeInterval)ti target:(id)aTarget selector:(SEL)aSelector userInfo:(id)userInfo repeats:(BOOL)yesOrNo {
    TimerIntermediateObject *obj = [[TimerIntermediateObject alloc] init];
    obj.target = aTarget;
    obj.selector = aSelector;
    // the target and selector point at the intermediate object and its method
    obj.timer = [NSTimer scheduledTimerWithTimeInterval:ti target:obj selector:@selector(fire:) userInfo:userInfo repeats:yesOrNo];
    return obj.timer;
}
@end

@implementation TimerIntermediateObject
- (void)fire:(NSTimer *)timer {
    if (self.target) {
        if ([self.target respondsToSelector:self.selector]) {
            [self.target performSelector:self.selector withObject:timer.userInfo];
        }
    } else {
        // a weak reference becomes nil once its object is freed
        [self.timer invalidate];
    }
}
@end

@implementation CarouselView
- (void)startAutoScroll {
    self.timer = [NSTimer scheduledIntermediateTimerWithTimeInterval:3.0 target:self selector:@selector(showNextPage) userInfo:nil repeats:YES];
}
@end
