#import "FrameRateLabel.h"

@implementation FrameRateLabel {
    CADisplayLink *_sampler;
    NSUInteger _frameCount;
    NSTimeInterval _since;
}

- (instancetype)initWithFrame:(CGRect)frame {
    if (self = [super initWithFrame:frame]) {
        self.font = [UIFont monospacedDigitSystemFontOfSize:11 weight:UIFontWeightMedium];
        _sampler = [CADisplayLink displayLinkWithTarget:self selector:@selector(sample:)];
        [_sampler addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
    }
    return self;
}

- (void)dealloc {
    [_sampler invalidate];
}

- (void)sample:(CADisplayLink *)link {
    if (_since == 0) {
        _since = link.timestamp;
        return;
    }
    _frameCount++;
    NSTimeInterval span = link.timestamp - _since;
    if (span < 1) return;
    self.text = [NSString stringWithFormat:@"%.0f fps", _frameCount / span];
    _frameCount = 0;
    _since = link.timestamp;
}

@end
