// Seed 000, second "fix": weakSelf as the target. The timer stores the object strongly whichever
// variable named it.
@implementation MainViewController

- (void)fire {
    __weak typeof(self) weakSelf = self;
    [NSTimer scheduledTimerWithTimeInterval:1.0 target: weakSelf selector:@selector(timeStart) userInfo:nil repeats:YES]; // expect: weakself-as-target
}

- (void)timeStart {
    NSLog(@"timeStart");
}

@end
