// The timer is stopped through a helper: credited when a life-cycle method calls it, reported as
// invalidate-only-in-deinit when only dealloc calls it (one level of calls to self is followed).
#import <UIKit/UIKit.h>

@interface QuoteViewController ()
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation QuoteViewController

- (void)viewWillAppear:(BOOL)animated {
    [super viewWillAppear:animated];
    [self startTimer];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    [self stopTimer];
}

- (void)startTimer {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:3 target:self selector:@selector(reload) userInfo:nil repeats:YES];
}

- (void)stopTimer {
    [self.timer invalidate];
    self.timer = nil;
}

- (void)reload {}

@end

@interface SessionPoller ()
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation SessionPoller

- (void)begin {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:30 target:self selector:@selector(poll) userInfo:nil repeats:YES];  // expect: timer-target-retain
}

- (void)stopTimer {
    [self.timer invalidate];
}

- (void)dealloc {
    [self stopTimer];  // expect: invalidate-only-in-deinit
}

- (void)poll {}

@end
