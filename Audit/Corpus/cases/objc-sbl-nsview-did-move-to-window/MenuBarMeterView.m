#import <Cocoa/Cocoa.h>

@interface MenuBarMeterView : NSView
@end

@implementation MenuBarMeterView {
    NSTimer *_meterTimer;
}

- (void)viewDidMoveToWindow {
    [super viewDidMoveToWindow];
    if (self.window) {
        [self startMeter];
    } else {
        [self stopMeter];
    }
}

- (void)startMeter {
    [self stopMeter];
    _meterTimer = [[NSTimer alloc] initWithFireDate:[NSDate date] interval:1.0 target:self selector:@selector(sampleMeter:) userInfo:nil repeats:YES];
    [[NSRunLoop currentRunLoop] addTimer:_meterTimer forMode:NSEventTrackingRunLoopMode];
}

- (void)stopMeter {
    [_meterTimer invalidate];
    _meterTimer = nil;
}

- (void)sampleMeter:(NSTimer *)timer {
    [self setNeedsDisplay:YES];
}

@end
