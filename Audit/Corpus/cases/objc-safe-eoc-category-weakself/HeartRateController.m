#import "NSTimer+BlockRunner.h"

@interface HeartRateController : UIViewController
@property (nonatomic, strong) NSTimer *pulseTimer;
@end

@implementation HeartRateController

- (void)viewDidLoad {
    [super viewDidLoad];
    __weak typeof(self) weakSelf = self;
    self.pulseTimer = [NSTimer br_scheduledTimerWithTimeInterval:1 repeats:YES block:^(NSTimer *timer) {
        __strong typeof(weakSelf) strongSelf = weakSelf;
        [strongSelf readSensor];
    }];
}

- (void)readSensor {
    NSLog(@"bpm");
}

- (void)dealloc {
    [self.pulseTimer invalidate];
    self.pulseTimer = nil;
}

@end
