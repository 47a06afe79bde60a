// Targets that are not the owner: a presenter the controller does not hold the timer in, a holder object
// whose strong property keeps the timer, and a class method whose self is the class.
@interface Poller : NSObject
@property (nonatomic, strong) NSTimer *timer;
@end

@interface WeakPoller : NSObject
@property (nonatomic, weak) NSTimer *timer;
@end

@implementation DashboardViewController

- (void)startPresenter {
    [NSTimer scheduledTimerWithTimeInterval:5 target:self.presenter selector:@selector(refresh) userInfo:nil repeats:YES];
}

- (void)startPoller {
    Poller *poller = [[Poller alloc] init];
    poller.timer = [NSTimer scheduledTimerWithTimeInterval:5 target:poller selector:@selector(poll) userInfo:nil repeats:YES]; // expect: timer-target-retain
}

- (void)startWeakPoller {
    WeakPoller *poller = [[WeakPoller alloc] init];
    poller.timer = [NSTimer scheduledTimerWithTimeInterval:5 target:poller selector:@selector(poll) userInfo:nil repeats:YES];
}

- (void)startUnknownRepeats:(BOOL)repeats {
    [NSTimer scheduledTimerWithTimeInterval:5 target:(id)self selector:@selector(poll) userInfo:nil repeats:repeats]; // expect: timer-target-retain
}

- (void)startWithAlias {
    DashboardViewController *me = self;
    [NSTimer scheduledTimerWithTimeInterval:5 target:me selector:@selector(poll) userInfo:nil repeats:YES]; // expect: timer-target-retain
}

+ (NSTimer *)sharedTicker {
    return [NSTimer scheduledTimerWithTimeInterval:5 target:self selector:@selector(classTick) userInfo:nil repeats:YES];
}

- (void)strings {
    NSString *text = @"[NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(x) userInfo:nil repeats:YES]";
    /* [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(x) userInfo:nil repeats:YES] */
    NSLog(@"%@", text);
}

@end
