#import "PageTimerProxy.h"

@interface HomeBannerView : UICollectionView
@property (nonatomic, strong) NSTimer *pageTimer;
@end

@implementation HomeBannerView

- (void)startPaging {
    [self.pageTimer invalidate];
    self.pageTimer = [NSTimer timerWithTimeInterval:3 target:[PageTimerProxy proxyWithTarget:self] selector:@selector(nextBanner) userInfo:nil repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:self.pageTimer forMode:NSRunLoopCommonModes];
}

- (void)nextBanner {
    NSIndexPath *current = self.indexPathsForVisibleItems.firstObject;
    if (current) {
        NSIndexPath *next = [NSIndexPath indexPathForItem:current.item + 1 inSection:0];
        [self scrollToItemAtIndexPath:next atScrollPosition:UICollectionViewScrollPositionCenteredHorizontally animated:YES];
    }
}

- (void)dealloc {
    [_pageTimer invalidate];
}

@end
