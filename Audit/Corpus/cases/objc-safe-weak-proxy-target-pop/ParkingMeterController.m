#import "WeakForwarder.h"

@interface ParkingMeterController : UIViewController
@property (nonatomic, strong) NSTimer *meterTimer;
@end

@implementation ParkingMeterController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.meterTimer = [NSTimer timerWithTimeInterval:1 target:[WeakForwarder forwarderTo:self] selector:@selector(meterTick) userInfo:nil repeats:YES];
    [[NSRunLoop currentRunLoop] addTimer:self.meterTimer forMode:NSRunLoopCommonModes];
}

- (void)meterTick {
    NSLog(@"meter");
}

- (void)touchesBegan:(NSSet<UITouch *> *)touches withEvent:(UIEvent *)event {
    [self.navigationController popViewControllerAnimated:YES];
}

- (void)dealloc {
    [self.meterTimer invalidate];
}

@end
