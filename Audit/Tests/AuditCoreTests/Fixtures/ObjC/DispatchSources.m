// GCD timer sources: handlers that capture self while the source is an ivar, unbalanced resumes, and a
// suspended source released.
@implementation PollingService {
    dispatch_source_t _source;
    dispatch_source_t _pausable;
}

- (void)start {
    _source = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_source_set_timer(_source, DISPATCH_TIME_NOW, 1 * NSEC_PER_SEC, 0);
    dispatch_source_set_event_handler(_source, ^{
        [self poll]; // expect: block-timer-strong-self
    });
    dispatch_resume(_source);
    dispatch_resume(_source); // expect: dispatch-source-double-resume
}

- (void)startWeakly {
    __weak typeof(self) weakSelf = self;
    _pausable = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_source_set_event_handler(_pausable, ^{
        [weakSelf poll];
    });
    dispatch_resume(_pausable);
}

- (void)resumeIfNeeded:(BOOL)paused {
    if (paused) {
        dispatch_resume(_pausable);
    }
    dispatch_suspend(_pausable);
    dispatch_resume(_pausable);
}

- (void)stopWhilePaused {
    dispatch_suspend(_pausable);
    dispatch_source_cancel(_pausable);
    _pausable = nil; // expect: dispatch-source-suspended-release
}

- (void)stopCorrectly {
    dispatch_suspend(_pausable);
    dispatch_resume(_pausable);
    dispatch_source_cancel(_pausable);
    _pausable = nil;
}

- (void)dealloc {
    dispatch_source_cancel(_source); // expect: invalidate-only-in-deinit
}

- (void)poll {
}

@end
