// Seed 001's block category used the naive way: the block names self, so the timer retains the instance
// through its block, and dealloc is the only place that stops it.
@implementation EOCClass {
    NSTimer *_poliTimer;
}

- (void)dealloc {
    [_poliTimer invalidate]; // expect: invalidate-only-in-deinit
}

- (void)startPolling {
    _poliTimer = [NSTimer eoc_scheduledTimerWithTimeInterval:5.0 block:^{
        [self p_doPoll]; // expect: block-timer-strong-self
    } repeats:YES];
}

- (void)p_doPoll {
}

@end
