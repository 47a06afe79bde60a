// Seed 000, the life-cycle fix that works for view controllers: the timer is invalidated when the view
// disappears, which breaks the cycle at a moment that does come.
// expect-none
@interface MainViewController ()
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation MainViewController

- (void)viewDidAppear:(BOOL)animated {
    [super viewDidAppear:animated];
    self.timer = [NSTimer scheduledTimerWithTimeInterval:1.0 target:self selector:@selector(timeStart) userInfo:nil repeats:YES];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    if (self.timer.isValid) {
        [self.timer invalidate];
    }
}

- (void)timeStart {
    NSLog(@"timeStart");
}

@end
