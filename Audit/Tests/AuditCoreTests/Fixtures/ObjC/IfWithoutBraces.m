// A statement after an if condition without braces: `)` then `[` starts a message send, not a subscript.
#import <UIKit/UIKit.h>

@interface LiveViewController ()
@property (nonatomic, strong) NSTimer *refreshTimer;
@end

@implementation LiveViewController

- (void)viewWillAppear:(BOOL)animated {
    [super viewWillAppear:animated];
    self.refreshTimer = [NSTimer scheduledTimerWithTimeInterval:5 target:self selector:@selector(refresh) userInfo:nil repeats:YES];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    if (self.refreshTimer) [self.refreshTimer invalidate];
    self.refreshTimer = nil;
}

- (void)refresh {}

@end

@implementation Pulse
- (void)start {
    if (self.autoRefresh) [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(tick) userInfo:nil repeats:YES];  // expect: timer-target-retain
    while (self.spinning) [NSTimer scheduledTimerWithTimeInterval:1 target:(id)self selector:@selector(tick) userInfo:nil repeats:YES];  // expect: timer-target-retain
    NSTimer *t = (NSTimer *)[NSTimer timerWithTimeInterval:1 target:self selector:@selector(tick) userInfo:nil repeats:YES];  // expect: timer-target-retain
    [[NSRunLoop mainRunLoop] addTimer:t forMode:NSRunLoopCommonModes];
}
- (void)tick {}
@end
