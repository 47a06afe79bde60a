#import "WashDispatcher.h"

@interface WashDispatcher ()
@property (nonatomic, assign) NSTimer *timer;
@end

@implementation WashDispatcher

- (void)setTimer:(NSTimer *)timer {
    if (_timer != timer) {
        [_timer invalidate];
        _timer = timer;
    }
}

- (void)run {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:2 repeats:YES block:^(NSTimer *timer) {
        [self washNextBatch];
    }];
}

- (void)stop {
    self.timer = nil;
}

- (void)washNextBatch {
    NSLog(@"washing");
}

@end
