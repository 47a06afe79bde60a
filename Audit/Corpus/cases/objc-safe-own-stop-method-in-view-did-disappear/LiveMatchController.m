#import "LiveMatchController.h"

@interface LiveMatchController ()
@property (nonatomic, strong) NSTimer *scoreTimer;
@end

@implementation LiveMatchController

- (void)viewDidAppear:(BOOL)animated {
    [super viewDidAppear:animated];
    [self startScoreUpdates];
}

- (void)viewDidDisappear:(BOOL)animated {
    [super viewDidDisappear:animated];
    [self stopScoreUpdates];
}

- (void)startScoreUpdates {
    self.scoreTimer = [NSTimer scheduledTimerWithTimeInterval:5 target:self selector:@selector(fetchScore) userInfo:nil repeats:YES];
}

- (void)stopScoreUpdates {
    [self.scoreTimer invalidate];
    self.scoreTimer = nil;
}

- (void)fetchScore {
    NSLog(@"score");
}

@end
