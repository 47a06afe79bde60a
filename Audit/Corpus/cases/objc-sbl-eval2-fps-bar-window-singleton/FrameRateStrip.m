#import "FrameRateStrip.h"

@implementation FrameRateStrip {
    CADisplayLink *_rateLink;
    CFTimeInterval _lastRateStamp;
}

- (void)dealloc {
    [_rateLink setPaused:YES];
    [_rateLink removeFromRunLoop:[NSRunLoop currentRunLoop] forMode:NSRunLoopCommonModes];
}

- (id)init {
    if ((self = [super initWithFrame:[UIApplication sharedApplication].statusBarFrame])) {
        _lastRateStamp = CACurrentMediaTime();
        _rateLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(rateLinkTick)];
        [_rateLink setPaused:YES];
        [_rateLink addToRunLoop:[NSRunLoop currentRunLoop] forMode:NSRunLoopCommonModes];
    }
    return self;
}

+ (FrameRateStrip *)sharedInstance {
    static FrameRateStrip *_sharedInstance;
    static dispatch_once_t onceToken;
    dispatch_once(&onceToken, ^{
        _sharedInstance = [[FrameRateStrip alloc] init];
    });
    return _sharedInstance;
}

- (void)setHidden:(BOOL)hidden {
    [super setHidden:hidden];
    [_rateLink setPaused:hidden];
}

- (void)rateLinkTick {
    CFTimeInterval now = CACurrentMediaTime();
    self.frameRate = 1.0 / (now - _lastRateStamp);
    _lastRateStamp = now;
}

@end
