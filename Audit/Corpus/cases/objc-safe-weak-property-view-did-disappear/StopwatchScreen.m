#import "StopwatchScreen.h"

@interface StopwatchScreen ()
@property (nonatomic, weak) NSTimer *lapTimer;
@property (nonatomic, assign) NSInteger tenths;
@end

@implementation StopwatchScreen

- (void)viewDidLoad {
    [super viewDidLoad];
    self.lapTimer = [NSTimer scheduledTimerWithTimeInterval:0.1 target:self selector:@selector(advance) userInfo:nil repeats:YES];
}

- (void)viewDidDisappear:(BOOL)animated {
    [super viewDidDisappear:animated];
    if (self.lapTimer.isValid) {
        [self.lapTimer invalidate];
        self.lapTimer = nil;
    }
}

- (void)advance {
    self.tenths += 1;
}

@end
