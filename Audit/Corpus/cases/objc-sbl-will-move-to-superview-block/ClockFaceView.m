#import "ClockFaceView.h"

@implementation ClockFaceView {
    NSTimer *_secondHand;
}

- (void)willMoveToSuperview:(UIView *)newSuperview {
    [super willMoveToSuperview:newSuperview];
    if (newSuperview == nil) {
        [_secondHand invalidate];
        _secondHand = nil;
        return;
    }
    if (_secondHand == nil) {
        _secondHand = [NSTimer scheduledTimerWithTimeInterval:1.0 repeats:YES block:^(NSTimer *timer) {
            [self setNeedsDisplay];
        }];
    }
}

@end
