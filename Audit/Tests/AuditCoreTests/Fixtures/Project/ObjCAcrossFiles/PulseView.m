#import "PulseView.h"

@implementation PulseView

- (void)startPulsing {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:0.5 target:self selector:@selector(pulse) userInfo:nil repeats:YES];
}

- (void)stopPulsing {
    [self.timer invalidate];
}

- (void)pulse {}

@end

@implementation AppDelegate

- (void)applicationDidBecomeActive:(UIApplication *)application {
    self.syncTimer = [NSTimer scheduledTimerWithTimeInterval:60 target:self selector:@selector(sync) userInfo:nil repeats:YES];
}

- (void)sync {}

@end

@implementation Metronome {
    NSTimer *_timer;
}

- (void)start {
    _timer = [NSTimer scheduledTimerWithTimeInterval:0.5 target:self selector:@selector(click) userInfo:nil repeats:YES];  // expect-note: timer-target-retain
}

- (void)stop {
    [_timer invalidate];
}

- (void)click {}

@end
