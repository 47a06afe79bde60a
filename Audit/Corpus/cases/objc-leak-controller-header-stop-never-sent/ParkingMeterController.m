#import "ParkingMeterController.h"

@interface ParkingMeterController ()
@property (nonatomic, strong) NSTimer *meterTimer;
@end

@implementation ParkingMeterController

- (void)viewDidLoad {
    [super viewDidLoad];
    [self startMeter];
}

- (void)startMeter {
    self.meterTimer = [NSTimer scheduledTimerWithTimeInterval:60 target:self selector:@selector(chargeMinute:) userInfo:nil repeats:YES];
}

- (void)stopMeter {
    [_meterTimer invalidate];
    self.meterTimer = nil;
}

- (void)chargeMinute:(NSTimer *)timer {
}

@end
