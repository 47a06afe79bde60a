#import "CurbsideMeterController.h"

@interface CurbsideMeterController ()
@property (nonatomic, strong) NSTimer *meterTimer;
@end

@implementation CurbsideMeterController

- (void)viewDidLoad {
    [super viewDidLoad];
    [self startCurbMeter];
}

- (void)startCurbMeter {
    self.meterTimer = [NSTimer scheduledTimerWithTimeInterval:60 target:self selector:@selector(chargeMinute:) userInfo:nil repeats:YES];
}

- (void)stopCurbMeter {
    [_meterTimer invalidate];
    self.meterTimer = nil;
}

- (void)chargeMinute:(NSTimer *)timer {
}

@end
