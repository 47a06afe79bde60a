// A suppression comment above a multi-line statement covers every line of it.
// expect-none
#import <Foundation/Foundation.h>

@implementation Clock

- (void)start {
    // timerkit-audit:ignore timer-target-retain
    _timer = [NSTimer scheduledTimerWithTimeInterval:1
                                              target:self
                                            selector:@selector(tick)
                                            userInfo:nil
                                             repeats:YES];
}

- (void)tick {}

@end

@implementation TrailingComment

- (void)start {
    _timer = [NSTimer scheduledTimerWithTimeInterval:1  // timerkit-audit:ignore timer-target-retain
                                              target:self
                                            selector:@selector(tick)
                                            userInfo:nil
                                             repeats:YES];
}

- (void)tick {}

@end
