#import "OfferBannerStripView.h"

@interface OfferBannerStripView () <UICollectionViewDelegate>
@property (nonatomic, weak) UICollectionView *pageStrip;
@property (nonatomic, weak) NSTimer *advanceTimer;
@end

@implementation OfferBannerStripView

- (void)setAdvanceDelay:(CGFloat)advanceDelay
{
    _advanceDelay = advanceDelay;
    [self armPromoAdvance];
}

- (void)armPromoAdvance
{
    [self disarmPromoAdvance];
    NSTimer *timer = [NSTimer scheduledTimerWithTimeInterval:self.advanceDelay target:self selector:@selector(advancePromoPage) userInfo:nil repeats:YES];
    _advanceTimer = timer;
    [[NSRunLoop mainRunLoop] addTimer:timer forMode:NSRunLoopCommonModes];
}

- (void)disarmPromoAdvance
{
    [_advanceTimer invalidate];
    _advanceTimer = nil;
}

- (void)advancePromoPage
{
    NSInteger next = self.shownPromoIndex + 1;
    [self.pageStrip scrollToItemAtIndexPath:[NSIndexPath indexPathForItem:next inSection:0] atScrollPosition:UICollectionViewScrollPositionNone animated:YES];
}

- (void)willMoveToSuperview:(UIView *)newSuperview
{
    if (!newSuperview) {
        [self disarmPromoAdvance];
    }
}

- (void)dealloc {
    _pageStrip.delegate = nil;
}

- (void)scrollViewWillBeginDragging:(UIScrollView *)scrollView
{
    [self disarmPromoAdvance];
}

- (void)scrollViewDidEndDragging:(UIScrollView *)scrollView willDecelerate:(BOOL)decelerate
{
    [self armPromoAdvance];
}

@end
