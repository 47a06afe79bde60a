#import "StatusPoller.h"

@implementation StatusPoller {
    void (^_action)(void);
    NSTimer *_timer;
}

- (instancetype)initWithAction:(void (^)(void))action {
    if ((self = [super init])) {
        _action = [action copy];
        _timer = [NSTimer scheduledTimerWithTimeInterval:10 target:self selector:@selector(check) userInfo:nil repeats:YES];
        _action();
    }
    return self;
}

- (void)halt {
    [_timer invalidate];
    _timer = nil;
}

- (void)check {
    _action();
}

@end
