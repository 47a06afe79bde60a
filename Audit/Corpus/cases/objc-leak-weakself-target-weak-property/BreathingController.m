#import "BreathingController.h"

@interface BreathingController ()
@property (nonatomic, weak) NSTimer *breathTimer;
@end

@implementation BreathingController

- (void)viewDidLoad {
    [super viewDidLoad];
    __weak typeof(self) weak_self = self;
    self.breathTimer = [NSTimer scheduledTimerWithTimeInterval:4 target:weak_self selector:@selector(nextBreath:) userInfo:nil repeats:YES];
}

- (void)nextBreath:(NSTimer *)timer {
    NSLog(@"breathe");
}

- (void)dealloc {
    [_breathTimer invalidate];
}

@end
