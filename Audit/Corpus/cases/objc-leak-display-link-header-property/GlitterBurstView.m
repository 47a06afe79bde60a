#import "GlitterBurstView.h"

@implementation GlitterBurstView

- (void)beginSparkling {
    self.sparkleLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(twinkle:)];
    [self.sparkleLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)twinkle:(CADisplayLink *)link {
    [self setNeedsDisplay];
}

@end
