#import "PausableTimer.h"

@interface PausableTimer ()
@property (nonatomic, strong) NSTimer *wrappedTimer;
@property (nonatomic, weak) id clientTarget;
@property (nonatomic, assign) SEL clientSelector;
@end

@implementation PausableTimer

+ (PausableTimer *)pausableTimerWithInterval:(NSTimeInterval)seconds target:(id)target selector:(SEL)selector {
    PausableTimer *pausable = [[PausableTimer alloc] init];
    pausable.clientTarget = target;
    pausable.clientSelector = selector;
    pausable.wrappedTimer = [NSTimer timerWithTimeInterval:seconds target:pausable selector:@selector(wrappedTimerFired) userInfo:nil repeats:YES];
    [[NSRunLoop currentRunLoop] addTimer:pausable.wrappedTimer forMode:NSDefaultRunLoopMode];
    return pausable;
}

- (void)wrappedTimerFired {
    [self.clientTarget performSelector:self.clientSelector withObject:nil];
}

- (void)pauseTimer {
    [self.wrappedTimer setFireDate:[NSDate distantFuture]];
}

- (void)resumeTimer {
    [self.wrappedTimer setFireDate:[NSDate date]];
}

- (void)invalidate {
    self.clientTarget = nil;
    [self.wrappedTimer invalidate];
    self.wrappedTimer = nil;
}

@end
