#import "RefreshRateView.h"

@implementation RefreshRateView {
    CADisplayLink *_refreshLink;
    UILabel *_valueLabel;
}

- (instancetype)initWithFrame:(CGRect)frame {
    if (self = [super initWithFrame:frame]) {
        _refreshLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(measure:)];
        [_refreshLink addToRunLoop:[NSRunLoop currentRunLoop] forMode:NSRunLoopCommonModes];
        _valueLabel = [[UILabel alloc] initWithFrame:self.bounds];
        [self addSubview:_valueLabel];
    }
    return self;
}

- (void)measure:(CADisplayLink *)link {
    _valueLabel.text = [NSString stringWithFormat:@"%ld Hz", (long)lround(1.0 / link.duration)];
}

@end
