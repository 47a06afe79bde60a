#import "MarchingAntsView.h"

@implementation MarchingAntsView {
    CGFloat _dashPhase;
}

- (void)march {
    _dashPhase += 1;
    [self setNeedsDisplay];
}

@end
