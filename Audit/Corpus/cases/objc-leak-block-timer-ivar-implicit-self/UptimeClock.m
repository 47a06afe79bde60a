#import "UptimeClock.h"

@implementation UptimeClock {
    NSTimer *_clock;
    NSUInteger _elapsed;
}

- (void)startClock {
    _clock = [NSTimer timerWithTimeInterval:1 repeats:YES block:^(NSTimer *timer) {
        _elapsed += 1;
    }];
    [[NSRunLoop mainRunLoop] addTimer:_clock forMode:NSRunLoopCommonModes];
}

- (NSUInteger)elapsedSeconds {
    return _elapsed;
}

@end
