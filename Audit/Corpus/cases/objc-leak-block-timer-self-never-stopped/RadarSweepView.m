#import "RadarSweepView.h"

@implementation RadarSweepView {
    NSTimer *_sweepTimer;
    CGFloat _angle;
}

- (void)didMoveToWindow {
    [super didMoveToWindow];
    if (self.window && !_sweepTimer) {
        _sweepTimer = [NSTimer scheduledTimerWithTimeInterval:1.0 / 30 repeats:YES block:^(NSTimer *timer) {
            NSLog(@"sweep %@", self);
            [self setNeedsDisplay];
        }];
    }
}

@end
