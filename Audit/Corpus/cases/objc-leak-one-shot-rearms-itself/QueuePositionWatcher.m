#import "QueuePositionWatcher.h"

@implementation QueuePositionWatcher {
    NSTimer *_nextCheck;
}

- (void)watch {
    [self scheduleCheck];
}

- (void)scheduleCheck {
    _nextCheck = [NSTimer scheduledTimerWithTimeInterval:10 target:self selector:@selector(checkPosition:) userInfo:nil repeats:NO];
}

- (void)checkPosition:(NSTimer *)timer {
    NSLog(@"asking the server for our place in the queue");
    [self scheduleCheck];
}

@end
