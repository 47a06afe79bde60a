// Seed 002: the three kinds of timer created in one place. Both NSTimers target self and repeat; the
// display link's target is a weak wrapper; the GCD source is a local whose handler does not use self.
@implementation TimerGalleryViewController {
    NSTimer *_timer2;
}

- (void)createTimers {
    NSTimer *_timer1 = [NSTimer timerWithTimeInterval:3 target:self selector:@selector(timer1) userInfo:nil repeats:YES]; // expect: timer-target-retain
    [[NSRunLoop mainRunLoop] addTimer:_timer1 forMode:NSRunLoopCommonModes];
    _timer2 = [NSTimer scheduledTimerWithTimeInterval:3 target:self selector:@selector(timer2) userInfo:nil repeats:YES]; // expect: timer-target-retain

    WeakWrapper *wapper = [[WeakWrapper alloc] initWith:self];
    CADisplayLink *_displayLink = [CADisplayLink displayLinkWithTarget:wapper selector:@selector(displayLink)];
    _displayLink.frameInterval = 60;
    [_displayLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSDefaultRunLoopMode];

    dispatch_queue_t queue = dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0);
    dispatch_source_t _timer = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, queue);
    dispatch_source_set_timer(_timer, DISPATCH_TIME_NOW, 3.0 * NSEC_PER_SEC, 0);
    // __weak typeof(self) weakSelf = self;
    dispatch_source_set_event_handler(_timer, ^{
        // DO balabalabala...
    });
    dispatch_resume(_timer);
}

- (void)destroyTimers {
    [_timer1 invalidate];
    [_timer2 invalidate];
    [_displayLink invalidate];
    dispatch_source_cancel(_timer);
}

@end
