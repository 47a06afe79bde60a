#import "FeedPoller.h"

@implementation FeedPoller {
    NSTimer *_pollTimer;
}

- (void)startPolling {
    __weak typeof(self) weakSelf = self;
    FeedPoller *strongSelf = weakSelf;
    _pollTimer = [NSTimer scheduledTimerWithTimeInterval:15 repeats:YES block:^(NSTimer *timer) {
        [strongSelf pullLatest];
    }];
}

- (void)pullLatest {
    NSLog(@"pull");
}

- (void)dealloc {
    [_pollTimer invalidate];
}

@end
