#import "LevelMeterView.h"

@implementation LevelMeterView {
    CADisplayLink *_meterLink;
}

- (void)startMetering {
    _meterLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(sampleLevel:)];
    [_meterLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)sampleLevel:(CADisplayLink *)link {
    [self setNeedsDisplay];
}

- (void)invalidate {
    [_meterLink invalidate];
    _meterLink = nil;
}

@end
