#import "BannerSlotController.h"
#import "AdRefreshTimer.h"

@interface BannerSlotController ()
@property (nonatomic, strong) AdRefreshTimer *bannerRefresh;
@end

@implementation BannerSlotController

- (void)viewDidAppear:(BOOL)animated {
    [super viewDidAppear:animated];
    self.bannerRefresh = [AdRefreshTimer refreshTimerWithInterval:30 target:self selector:@selector(loadNextBanner)];
}

- (void)viewDidDisappear:(BOOL)animated {
    [super viewDidDisappear:animated];
    [self.bannerRefresh invalidate];
}

- (void)loadNextBanner {
}

@end
