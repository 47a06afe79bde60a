#import "DriftController.h"

@interface DriftController ()
@property (nonatomic, strong) NSTimer *driftTimer;
@property (nonatomic, strong) UIView *marker;
@end

@implementation DriftController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.marker = [[UIView alloc] initWithFrame:CGRectMake(0, 40, 24, 24)];
    [self.view addSubview:self.marker];

    __weak typeof(self) weakSelf = self;
    self.driftTimer = [NSTimer scheduledTimerWithTimeInterval:1.0 / 30.0 repeats:YES block:^(NSTimer *timer) {
        __strong typeof(weakSelf) strongSelf = weakSelf;
        if (strongSelf == nil) {
            [timer invalidate];
            return;
        }
        CGRect frame = strongSelf.marker.frame;
        frame.origin.x += 1;
        strongSelf.marker.frame = frame;
    }];
}

- (void)dealloc {
    [_driftTimer invalidate];
}

@end
