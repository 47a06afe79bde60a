#import "RoundClock.h"

@implementation RoundClock {
    NSTimer *_ticker;
    NSInteger _secondsLeft;
}

- (instancetype)init {
    if ((self = [super init])) {
        _secondsLeft = 180;
    }
    return self;
}

- (void)begin {
    [self halt];
    _ticker = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(tick) userInfo:nil repeats:YES];
}

- (void)halt {
    if ([_ticker isValid]) {
        [_ticker invalidate];
    }
    _ticker = nil;
}

- (void)tick {
    _secondsLeft -= 1;
    if (_secondsLeft <= 0) {
        [self halt];
    }
}

@end
