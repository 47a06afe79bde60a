// Seed 001: a timer in the default mode pauses while a scroll view tracks. The weak proxy target keeps
// these examples about modes only.
@interface FeedTableViewController : UITableViewController
@end

@implementation FeedTableViewController

- (void)startDefaultOnly {
    NSTimer *timer = [NSTimer timerWithTimeInterval:1.0 target:[WeakProxy proxyWithTarget:self] selector:@selector(refresh) userInfo:nil repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:timer forMode:NSDefaultRunLoopMode]; // expect-note: default-mode-in-scroll-view
}

- (void)startScheduled {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:1.0 target:[WeakProxy proxyWithTarget:self] selector:@selector(refresh) userInfo:nil repeats:YES]; // expect-note: default-mode-in-scroll-view
}

- (void)startInBothModes {
    NSTimer *timer = [NSTimer timerWithTimeInterval:1.0 target:[WeakProxy proxyWithTarget:self] selector:@selector(refresh) userInfo:nil repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:timer forMode:NSDefaultRunLoopMode];
    [[NSRunLoop mainRunLoop] addTimer:timer forMode: UITrackingRunLoopMode];
}

- (void)startInCommonModes {
    NSTimer *timer = [NSTimer timerWithTimeInterval:1.0 target:[WeakProxy proxyWithTarget:self] selector:@selector(refresh) userInfo:nil repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:timer forMode: NSRunLoopCommonModes];
}

- (void)startOneShot {
    [NSTimer scheduledTimerWithTimeInterval:1.0 target:self selector:@selector(refresh) userInfo:nil repeats:NO];
}

- (void)refresh {
}

@end

@implementation SettingsViewController

- (void)startDefaultOnly {
    NSTimer *timer = [NSTimer timerWithTimeInterval:1.0 target:[WeakProxy proxyWithTarget:self] selector:@selector(refresh) userInfo:nil repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:timer forMode:NSDefaultRunLoopMode];
}

@end
