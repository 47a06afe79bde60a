#import "BeaconRadarController.h"

@interface BeaconRadarController ()
@property (nonatomic, strong) NSTimer *radarTimer;
@end

@implementation BeaconRadarController

- (void)viewWillAppear:(BOOL)animated {
    [super viewWillAppear:animated];
    [self beginRadarSweep];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    [self endRadarSweep];
}

- (void)beginRadarSweep {
    self.radarTimer = [NSTimer scheduledTimerWithTimeInterval:5 target:self selector:@selector(sweepRadar:) userInfo:nil repeats:YES];
}

- (void)endRadarSweep {
    [_radarTimer invalidate];
    self.radarTimer = nil;
}

- (void)sweepRadar:(NSTimer *)theTimer {
}

@end
