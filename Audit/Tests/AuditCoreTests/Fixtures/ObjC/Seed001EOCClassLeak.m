// Seed 001, the leak: the polling timer lives in an ivar and targets self. stopPolling may never be
// called, and dealloc cannot run while the timer holds the instance.
@interface EOCClass : NSObject
- (void)startPolling;
- (void)stopPolling;
@end

@implementation EOCClass {
    NSTimer *_poliTimer;
}

- (id)init {
    return [super init];
}

- (void)dealloc {
    [_poliTimer invalidate];
}

- (void)stopPolling {
    [_poliTimer invalidate];
    _poliTimer = nil;
}

- (void)startPolling {
    _poliTimer = [NSTimer scheduledTimerWithTimeInterval:5.0 target:self selector:@selector(p_doPoll) userInfo:nil repeats:YES]; // expect: timer-target-retain
}

- (void)p_doPoll {
    // Poll the resource
}

@end
