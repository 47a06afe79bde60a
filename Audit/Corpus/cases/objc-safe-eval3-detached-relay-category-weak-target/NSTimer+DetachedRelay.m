#import "NSTimer+DetachedRelay.h"

@implementation DetachedTickRelay

- (void)relayTick:(NSTimer *)timer {
    [self.relayTarget performSelector:self.relaySelector withObject:timer afterDelay:0.0];
}

@end

@implementation NSTimer (DetachedRelay)

+ (NSTimer *)scheduledDetachedTimerWithTimeInterval:(NSTimeInterval)seconds target:(id)target selector:(SEL)sel userinfo:(id)userInfo repeats:(BOOL)repeats {
    DetachedTickRelay *relay = [DetachedTickRelay alloc];
    relay.relaySelector = sel;
    relay.relayTarget = target;
    NSTimer *timer = [NSTimer scheduledTimerWithTimeInterval:seconds target:relay selector:@selector(relayTick:) userInfo:userInfo repeats:repeats];
    [[NSRunLoop currentRunLoop] addTimer:timer forMode:NSRunLoopCommonModes];
    return timer;
}

@end
