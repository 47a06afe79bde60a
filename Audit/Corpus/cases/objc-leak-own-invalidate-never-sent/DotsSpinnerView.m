#import "DotsSpinnerView.h"

@implementation DotsSpinnerView {
    CADisplayLink *_dotsLink;
}

- (void)didMoveToSuperview {
    [super didMoveToSuperview];
    if (self.superview) {
        _dotsLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(rotateDots:)];
        [_dotsLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
    }
}

- (void)rotateDots:(CADisplayLink *)link {
}

- (void)invalidate {
    [_dotsLink invalidate];
}

@end
