#import "NSTimer+BlockRelay.h"

@implementation NSTimer (BlockRelay)

+ (NSTimer *)relay_scheduleTimerWithTimeInterval:(NSTimeInterval)interval block:(void (^)(void))block repeats:(BOOL)repeats {
    return [self scheduledTimerWithTimeInterval:interval target:self selector:@selector(relay_runBlock:) userInfo:[block copy] repeats:repeats];
}

+ (void)relay_runBlock:(NSTimer *)timer {
    void (^block)(void) = timer.userInfo;
    if (block) {
        block();
    }
}

@end
