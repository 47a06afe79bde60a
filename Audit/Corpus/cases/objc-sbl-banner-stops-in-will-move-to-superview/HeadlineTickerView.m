#import "HeadlineTickerView.h"

@implementation HeadlineTickerView {
    NSTimer *_headlineTimer;
}

- (void)willMoveToSuperview:(UIView *)newSuperview {
    [super willMoveToSuperview:newSuperview];
    if (newSuperview == nil) {
        [_headlineTimer invalidate];
        _headlineTimer = nil;
    } else if (_headlineTimer == nil) {
        _headlineTimer = [NSTimer scheduledTimerWithTimeInterval:4 target:self selector:@selector(nextHeadline) userInfo:nil repeats:YES];
    }
}

- (void)nextHeadline {
}

@end
