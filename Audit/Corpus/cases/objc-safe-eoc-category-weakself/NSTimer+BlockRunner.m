#import "NSTimer+BlockRunner.h"

@implementation NSTimer (BlockRunner)

+ (NSTimer *)br_scheduledTimerWithTimeInterval:(NSTimeInterval)interval repeats:(BOOL)repeats block:(void (^)(NSTimer *timer))block {
    return [self scheduledTimerWithTimeInterval:interval target:self selector:@selector(br_invoke:) userInfo:[block copy] repeats:repeats];
}

+ (void)br_invoke:(NSTimer *)timer {
    void (^block)(NSTimer *) = timer.userInfo;
    if (block) {
        block(timer);
    }
}

@end
