// Mentions no timer class: the calls here stop the timers made in PulseView.m.
#import "PulseView.h"

@implementation PulseViewController

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    [self.pulseView stopPulsing];
}

- (void)stopPlayback {
    [self.metronome stop];
}

@end
