#import "PulseSocket.h"

@implementation PulseSocket

+ (PulseSocket *)sharedSocket {
    PULSE_SHARED_INSTANCE(^{
        return [[self alloc] init];
    });
}

- (void)connectPulse {
    self.pulseTimer = [NSTimer scheduledTimerWithTimeInterval:30 target:self selector:@selector(sendPulse) userInfo:nil repeats:YES];
}

- (void)sendPulse {
}

@end
