// Seed 000, the working fix: an intermediate object holds the target weakly and invalidates the timer
// once the target is gone; and the block category, whose target is the NSTimer class itself.
// expect-none
#import "DWTimer.h"

@interface DWTimerTarget : NSObject
@property (nonatomic, weak) id target;
@property (nonatomic, assign) SEL selector;
@property (nonatomic, weak) NSTimer* timer;
@end

@implementation DWTimerTarget
- (void) fire:(NSTimer *)timer {
    if(self.target) {
        [self.target performSelector:self.selector withObject:timer.userInfo afterDelay:0.0f];
    } else {
        [self.timer invalidate];
    }
}
@end

@implementation DWTimer
+ (NSTimer *) scheduledTimerWithTimeInterval:(NSTimeInterval)interval
                                      target:(id)aTarget
                                    selector:(SEL)aSelector
                                    userInfo:(id)userInfo
                                     repeats:(BOOL)repeats {
    DWTimerTarget* timerTarget = [[DWTimerTarget alloc] init];
    timerTarget.target = aTarget;
    timerTarget.selector = aSelector;
    timerTarget.timer = [NSTimer scheduledTimerWithTimeInterval:interval
                                                         target:timerTarget
                                                       selector:@selector(fire:)
                                                       userInfo:userInfo
                                                        repeats:repeats];
    return timerTarget.timer;
}
@end

// NSTimer+Block.h
@interface NSTimer (Block)
+ (NSTimer *)dw_scheduledTimerWithTimeInterval:(NSTimeInterval)interval repeats:(BOOL)repeats block:(void (^)(NSTimer *timer))block;
@end

// NSTimer+Block.m
@implementation NSTimer (Block)
+ (NSTimer *)dw_scheduledTimerWithTimeInterval:(NSTimeInterval)interval repeats:(BOOL)repeats block:(void (^)(NSTimer * _Nonnull))block {
    return [NSTimer scheduledTimerWithTimeInterval:interval target:self selector:@selector(callback:) userInfo:[block copy] repeats:YES];
}

+ (void)callback:(NSTimer *)timer {
    void(^block)(NSTimer *) = timer.userInfo;
    block(timer);
}
@end
