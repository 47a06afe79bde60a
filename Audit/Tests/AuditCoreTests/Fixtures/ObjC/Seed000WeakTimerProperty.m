// Seed 000, first "fix": a weak timer property. The run loop retains the scheduled timer, and the timer
// retains its target, so the controller still leaks.
@interface MainViewController ()
@property (nonatomic, weak) NSTimer *timer;
@end

@implementation MainViewController

- (void)fire {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:1.0 target:self selector:@selector(timeStart) userInfo:nil repeats:YES]; // expect: weak-timer-property-no-fix
}

- (void)timeStart {
    NSLog(@"timeStart");
}

- (void)dealloc {
    [self.timer invalidate]; // expect: invalidate-only-in-deinit
}

@end
