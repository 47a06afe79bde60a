#import "SeedDetailController.h"

@interface SeedDetailController ()
@property (nonatomic, strong) NSTimer *seedUpdateTimer;
@end

@implementation SeedDetailController

- (void)viewWillAppear:(BOOL)animated {
    [super viewWillAppear:animated];
    self.seedUpdateTimer = [NSTimer scheduledTimerWithTimeInterval:1.0f target:self selector:@selector(updateSeedInfo) userInfo:nil repeats:YES];
    [self updateSeedInfo];
}

- (void)viewDidDisappear:(BOOL)animated {
    [super viewDidDisappear:animated];
    [self.seedUpdateTimer invalidate];
}

- (void)updateSeedInfo {
}

@end
