#import "SplashAdController.h"

@interface SplashAdController ()
@property (nonatomic, strong) NSTimer *skipTimer;
@property (nonatomic, assign) NSInteger secondsToSkip;
@end

@implementation SplashAdController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.secondsToSkip = 5;
    self.skipTimer = [NSTimer scheduledTimerWithTimeInterval:1.0 target:self selector:@selector(updateSkip:) userInfo:nil repeats:YES];
    dispatch_after(dispatch_time(DISPATCH_TIME_NOW, (int64_t)(5 * NSEC_PER_SEC)), dispatch_get_main_queue(), ^{
        [self dismissViewControllerAnimated:YES completion:nil];
    });
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    [self.skipTimer invalidate];
    self.skipTimer = nil;
}

- (void)updateSkip:(NSTimer *)timer {
    self.secondsToSkip -= 1;
}

@end
