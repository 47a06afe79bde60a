#import "PulseDriver.h"

@implementation PulseDriver {
    CADisplayLink *_pulseLink;
}

- (void)beginPulsing {
    _pulseLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(pulse:)];
    [_pulseLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)endPulsing {
    [_pulseLink invalidate];
    _pulseLink = nil;
}

- (void)pulse:(CADisplayLink *)link {
    if (self.onPulse) {
        self.onPulse(link.timestamp);
    }
}

- (void)dealloc {
    [self endPulsing];
}

@end
