// Seed 000, the leak: a repeating timer whose target is the view controller that holds it. The
// dealloc "fix" never runs, because the timer keeps the controller alive.
@interface MainViewController ()
@property (nonatomic, strong) UIButton *fireButton;
@property (nonatomic, strong) UIButton *invalidateButton;
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation MainViewController

- (void)viewDidLoad {
    [super viewDidLoad];
}

- (void)fire {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:1.0 target:self selector:@selector(timeStart) userInfo:nil repeats:YES]; // expect: timer-target-retain
}

- (void)invalidate {
    [self.timer invalidate];
}

- (void)timeStart {
    NSLog(@"timeStart");
}

- (void)dealloc {
    [self.timer invalidate];
}

@end
