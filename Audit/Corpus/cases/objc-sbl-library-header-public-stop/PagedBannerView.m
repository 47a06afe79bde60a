#import "PagedBannerView.h"

@implementation PagedBannerView

- (void)addBannerTimer {
    self.bannerTimer = [NSTimer scheduledTimerWithTimeInterval:3 target:self selector:@selector(showNextBanner) userInfo:nil repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:self.bannerTimer forMode:NSRunLoopCommonModes];
}

- (void)invalidateBannerTimer {
    [self.bannerTimer invalidate];
    self.bannerTimer = nil;
}

- (void)showNextBanner {
    CGPoint offset = self.bannerScroll.contentOffset;
    offset.x += self.bannerScroll.frame.size.width;
    [self.bannerScroll setContentOffset:offset animated:YES];
}

@end
