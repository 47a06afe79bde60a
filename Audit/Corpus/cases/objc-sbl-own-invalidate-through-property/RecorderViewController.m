#import "RecorderViewController.h"
#import "LevelMeterView.h"

@interface RecorderViewController ()
@property (nonatomic, strong) LevelMeterView *levelMeter;
@end

@implementation RecorderViewController

- (void)viewDidAppear:(BOOL)animated {
    [super viewDidAppear:animated];
    [self.levelMeter startMetering];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    [self.levelMeter invalidate];
}

@end
