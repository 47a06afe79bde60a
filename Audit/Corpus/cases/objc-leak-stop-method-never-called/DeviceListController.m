#import "DeviceListController.h"

@interface DeviceListController () {
    NSTimer *_scanTimer;
}
@end

@implementation DeviceListController

- (void)viewDidLoad {
    [super viewDidLoad];
    _scanTimer = [NSTimer scheduledTimerWithTimeInterval:0.5 target:self selector:@selector(scanNearby) userInfo:nil repeats:YES];
}

- (void)endScanning {
    [_scanTimer invalidate];
    _scanTimer = nil;
}

- (void)scanNearby {
    NSLog(@"scanning");
}

- (void)dealloc {
    [_scanTimer invalidate];
}

@end
