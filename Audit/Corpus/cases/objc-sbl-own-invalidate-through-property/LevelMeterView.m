#import "LevelMeterView.h"

@implementation LevelMeterView {
    CADisplayLink *_meterLink;
}

- (void)startMetering {
    _meterLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(sampleMicLevel:)];
    [_meterLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)sampleMicLevel:(CADisplayLink *)link {
    [self setNeedsDisplay];
}

- (void)invalidate {
    [_meterLink invalidate];
    _meterLink = nil;
}

@end
