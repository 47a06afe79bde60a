#import "PulseStarter.h"
#import "PulseSocket.h"

@implementation PulseStarter

- (void)startPulses {
    [[PulseSocket sharedSocket] connectPulse];
}

@end
