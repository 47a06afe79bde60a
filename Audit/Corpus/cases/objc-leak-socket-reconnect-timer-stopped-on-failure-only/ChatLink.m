#import "ChatLink.h"

@implementation ChatLink {
    NSTimer *_keepAliveTimer;
    NSError *_fatalFailure;
}

- (void)openChatLink {
    _keepAliveTimer = [NSTimer scheduledTimerWithTimeInterval:15 target:self selector:@selector(keepAlive:) userInfo:nil repeats:YES];
}

- (void)keepAlive:(NSTimer *)timer {
    [self sendKeepAlivePing];
    if (_fatalFailure != nil) {
        [_keepAliveTimer invalidate];
        _keepAliveTimer = nil;
    }
}

- (void)sendKeepAlivePing {
}

@end
