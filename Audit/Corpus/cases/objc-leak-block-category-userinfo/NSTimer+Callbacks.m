#import "NSTimer+Callbacks.h"

@implementation NSTimer (Callbacks)

+ (NSTimer *)cb_every:(NSTimeInterval)interval repeats:(BOOL)repeats run:(void (^)(void))block {
    return [self scheduledTimerWithTimeInterval:interval
                                         target:self
                                       selector:@selector(cb_fire:)
                                       userInfo:[block copy]
                                        repeats:repeats];
}

+ (void)cb_fire:(NSTimer *)timer {
    void (^block)(void) = timer.userInfo;
    if (block) {
        block();
    }
}

@end
