#import "AdRefreshTimer.h"

@interface AdRefreshTimer ()
@property (nonatomic, strong) NSTimer *innerTimer;
@property (nonatomic, weak) id refreshTarget;
@property (nonatomic, assign) SEL refreshSelector;
@end

@implementation AdRefreshTimer

+ (AdRefreshTimer *)refreshTimerWithInterval:(NSTimeInterval)seconds target:(id)target selector:(SEL)selector {
    AdRefreshTimer *wrapper = [[AdRefreshTimer alloc] init];
    wrapper.refreshTarget = target;
    wrapper.refreshSelector = selector;
    wrapper.innerTimer = [NSTimer scheduledTimerWithTimeInterval:seconds target:wrapper selector:@selector(refreshDidFire) userInfo:nil repeats:YES];
    return wrapper;
}

- (void)refreshDidFire {
    [self.refreshTarget performSelector:self.refreshSelector];
}

- (void)invalidate {
    self.refreshTarget = nil;
    [self.innerTimer invalidate];
    self.innerTimer = nil;
}

@end
