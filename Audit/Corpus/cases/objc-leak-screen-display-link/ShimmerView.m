#import "ShimmerView.h"

@implementation ShimmerView {
    CADisplayLink *_shimmerLink;
    CGFloat _phase;
}

- (void)didMoveToWindow {
    [super didMoveToWindow];
    if (self.window && !_shimmerLink) {
        _shimmerLink = [self.window.screen displayLinkWithTarget:self selector:@selector(shimmer:)];
        [_shimmerLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
    }
}

- (void)shimmer:(CADisplayLink *)link {
    _phase = fmod(_phase + 0.02, 1.0);
    [self setNeedsDisplay];
}

- (void)dealloc {
    [_shimmerLink invalidate];
}

@end
