#import "SoftProxy.h"

@interface TickerTapeView : UIView
@end

@implementation TickerTapeView {
    NSTimer *_scrollTimer;
}

- (void)startScrolling {
    _scrollTimer = [NSTimer timerWithTimeInterval:0.05
                                           target:[SoftProxy proxyFor:self]
                                         selector:@selector(scrollStep:)
                                         userInfo:nil
                                          repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:_scrollTimer forMode:NSRunLoopCommonModes];
}

- (void)scrollStep:(NSTimer *)timer {
    self.bounds = CGRectOffset(self.bounds, 1, 0);
}

- (void)dealloc {
    [_scrollTimer invalidate];
}

@end
