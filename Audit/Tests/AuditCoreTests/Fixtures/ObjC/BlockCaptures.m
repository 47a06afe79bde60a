// Block-based timers: strong captures of self, the weakSelf/strongSelf dance done wrong and done right.
@interface StopwatchViewController ()
@property (nonatomic, strong) NSTimer *timer;
@property (nonatomic, assign) NSInteger seconds;
@end

@implementation StopwatchViewController {
    NSInteger _ticks;
}

- (void)startCapturingSelf {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:1 repeats:YES block:^(NSTimer *timer) {
        self.seconds += 1; // expect: block-timer-strong-self
    }];
}

- (void)startUsingIvar {
    self.timer = [NSTimer timerWithTimeInterval:1 repeats:YES block:^(NSTimer *timer) {
        _ticks += 1; // expect: block-timer-strong-self
    }];
}

- (void)startStrongifiedOutside {
    __weak typeof(self) weakSelf = self;
    __strong typeof(weakSelf) strongSelf = weakSelf;
    self.timer = [NSTimer scheduledTimerWithTimeInterval:1 repeats:YES block:^(NSTimer *timer) {
        strongSelf.seconds += 1; // expect: strongself-escapes
    }];
}

- (void)startMixingWeakAndStrong {
    __weak typeof(self) weakSelf = self;
    self.timer = [NSTimer scheduledTimerWithTimeInterval:1 repeats:YES block:^(NSTimer *timer) {
        __strong typeof(weakSelf) strongSelf = weakSelf;
        strongSelf.seconds += 1;
        [self updateLabel]; // expect: block-timer-strong-self
    }];
}

- (void)startCorrectly {
    __weak typeof(self) weakSelf = self;
    self.timer = [NSTimer scheduledTimerWithTimeInterval:1 repeats:YES block:^(NSTimer *timer) {
        __strong typeof(weakSelf) strongSelf = weakSelf;
        if (!strongSelf) {
            [timer invalidate];
            return;
        }
        strongSelf.seconds += 1;
        [strongSelf updateLabel];
    }];
}

- (void)startWithLibextobjc {
    @weakify(self);
    self.timer = [NSTimer scheduledTimerWithTimeInterval:1 repeats:YES block:^(NSTimer *timer) {
        @strongify(self);
        [self updateLabel];
    }];
}

- (void)startOneShot {
    [NSTimer scheduledTimerWithTimeInterval:1 repeats:NO block:^(NSTimer *timer) {
        [self updateLabel];
    }];
}

- (void)startWithFireDate {
    NSTimer *timer = [[NSTimer alloc] initWithFireDate:[NSDate date] interval:1 repeats:YES block:^(NSTimer *t) {
        [self updateLabel]; // expect: block-timer-strong-self
    }];
    [[NSRunLoop mainRunLoop] addTimer:timer forMode:NSRunLoopCommonModes];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
}

- (void)updateLabel {
}

@end
