// A class method makes a wrapper and a timer that targets the wrapper, which keeps the timer: a cycle
// nothing breaks (its invalidate is called only from dealloc).
#import "Relay.h"

@implementation Relay

+ (Relay *)relayEvery:(NSTimeInterval)interval {
    Relay *relay = [[Relay alloc] init];
    relay.timer = [NSTimer scheduledTimerWithTimeInterval:interval target:relay selector:@selector(forward) userInfo:nil repeats:YES];  // expect: timer-target-retain
    relay.weakTimer = [NSTimer scheduledTimerWithTimeInterval:interval target:relay selector:@selector(forward) userInfo:nil repeats:YES];
    return relay;
}

- (void)forward {}

@end
