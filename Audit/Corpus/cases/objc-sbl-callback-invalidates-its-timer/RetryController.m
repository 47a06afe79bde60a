#import "RetryController.h"

@implementation RetryController {
    NSInteger _attempts;
}

- (void)retryUploads {
    _attempts = 0;
    [NSTimer scheduledTimerWithTimeInterval:2 target:self selector:@selector(attempt:) userInfo:nil repeats:YES];
}

- (void)attempt:(NSTimer *)timer {
    _attempts += 1;
    BOOL done = [self.uploader flushPending];
    if (done || _attempts >= 10) {
        [timer invalidate];
    }
}

@end
