#import "FrameTicker.h"

@implementation FrameTicker {
    CADisplayLink *_link;
}

- (void)startTicking {
    [self stopTicking];
    _link = [CADisplayLink displayLinkWithTarget:self selector:@selector(onFrame:)];
    [_link addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)stopTicking {
    if (_link) {
        [_link invalidate];
        _link = nil;
    }
}

- (void)onFrame:(CADisplayLink *)link {
    [self.delegate frameTickerDidTick:link.duration];
}

- (void)dealloc {
    [self stopTicking];
}

@end
