#import "AppDelegate.h"

@interface AppDelegate ()
@property (nonatomic, strong) NSTimer *badgeTimer;
@end

@implementation AppDelegate

- (BOOL)application:(UIApplication *)application didFinishLaunchingWithOptions:(NSDictionary *)launchOptions {
    self.badgeTimer = [NSTimer timerWithTimeInterval:60 target:self selector:@selector(refreshBadge:) userInfo:nil repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:self.badgeTimer forMode:NSRunLoopCommonModes];
    return YES;
}

- (void)refreshBadge:(NSTimer *)timer {
    [UIApplication sharedApplication].applicationIconBadgeNumber = [self.inbox unreadCount];
}

@end
