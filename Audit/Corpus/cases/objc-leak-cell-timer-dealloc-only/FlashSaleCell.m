#import "FlashSaleCell.h"

@implementation FlashSaleCell {
    NSTimer *_countdown;
    NSInteger _secondsLeft;
}

- (void)configureWithSeconds:(NSInteger)seconds {
    _secondsLeft = seconds;
    if (_countdown == nil) {
        _countdown = [NSTimer timerWithTimeInterval:1 target:self selector:@selector(countDown) userInfo:nil repeats:YES];
        [[NSRunLoop mainRunLoop] addTimer:_countdown forMode:NSRunLoopCommonModes];
    }
}

- (void)countDown {
    _secondsLeft = MAX(_secondsLeft - 1, 0);
    self.timeLabel.text = [NSString stringWithFormat:@"%02ld:%02ld", (long)(_secondsLeft / 60), (long)(_secondsLeft % 60)];
}

- (void)dealloc {
    [_countdown invalidate];
}

@end
