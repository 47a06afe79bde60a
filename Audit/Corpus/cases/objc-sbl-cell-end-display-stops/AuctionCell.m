#import "AuctionCell.h"

@implementation AuctionCell {
    NSTimer *_remainingTimer;
}

- (void)cellDidAppear {
    _remainingTimer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(refreshRemaining) userInfo:nil repeats:YES];
}

- (void)cellDidDisappear {
    if (_remainingTimer) {
        [_remainingTimer invalidate];
        _remainingTimer = nil;
    }
}

- (void)refreshRemaining {
    NSTimeInterval left = [self.closesAt timeIntervalSinceNow];
    self.detailTextLabel.text = [NSString stringWithFormat:@"%.0fs left", MAX(left, 0)];
}

@end
