#import "RelayTimer.h"

@implementation RelayTimer {
    id _receiver;
    SEL _selector;
}

+ (RelayTimer *)relayEvery:(NSTimeInterval)interval target:(id)target selector:(SEL)selector {
    RelayTimer *relay = [[RelayTimer alloc] init];
    relay->_receiver = target;
    relay->_selector = selector;
    relay.timer = [NSTimer timerWithTimeInterval:interval target:relay selector:@selector(forward) userInfo:nil repeats:YES];
    [[NSRunLoop currentRunLoop] addTimer:relay.timer forMode:NSDefaultRunLoopMode];
    return relay;
}

- (void)forward {
    if ([_receiver respondsToSelector:_selector]) {
        ((void (*)(id, SEL))[_receiver methodForSelector:_selector])(_receiver, _selector);
    }
}

- (void)invalidate {
    [self.timer invalidate];
    _timer = nil;
    _receiver = nil;
}

- (void)dealloc {
    [self invalidate];
}

@end
