#import "PosterWheelView.h"

@interface PosterWheelView () <UICollectionViewDelegate, UICollectionViewDataSource>
@property (nonatomic, strong) UICollectionView *posterGrid;
@property (nonatomic, weak) NSTimer *wheelTimer;
@property (nonatomic, strong) NSArray *posters;
@end

@implementation PosterWheelView

- (void)setWheelNeeded:(BOOL)wheelNeeded {
    _wheelNeeded = wheelNeeded;
    if (_wheelNeeded) {
        [self startWheelTimer];
    } else {
        [self dropWheelTimerIfNeeded];
    }
}

- (void)startWheelTimer {
    [self dropWheelTimerIfNeeded];
    if (self.posters.count < 2) return;
    NSTimer *timer = [NSTimer scheduledTimerWithTimeInterval:self.wheelInterval target:self selector:@selector(turnToNextPoster) userInfo:nil repeats:YES];
    _wheelTimer = timer;
    [[NSRunLoop mainRunLoop] addTimer:_wheelTimer forMode:NSRunLoopCommonModes];
}

- (void)holdWheel {
    if (self.wheelTimer && [self.wheelTimer isValid]) {
        [self.wheelTimer setFireDate:[NSDate distantFuture]];
    }
}

- (void)releaseWheelAfter:(NSTimeInterval)delay {
    if (self.wheelTimer && [self.wheelTimer isValid]) {
        [self.wheelTimer setFireDate:[NSDate dateWithTimeIntervalSinceNow:delay]];
    }
}

- (void)dropWheelTimerIfNeeded {
    if (self.wheelTimer) {
        if (self.wheelTimer.isValid) {
            [_wheelTimer invalidate];
        }
        _wheelTimer = nil;
    }
}

- (void)turnToNextPoster {
    NSInteger next = (NSInteger)(self.posterGrid.contentOffset.x / self.posterGrid.bounds.size.width) + 1;
    [self.posterGrid setContentOffset:CGPointMake(next * self.posterGrid.bounds.size.width, 0) animated:YES];
}

- (void)scrollViewWillBeginDragging:(UIScrollView *)scrollView {
    [self holdWheel];
}

- (void)scrollViewDidEndDecelerating:(UIScrollView *)scrollView {
    [self releaseWheelAfter:self.wheelInterval];
}

- (void)willMoveToWindow:(UIWindow *)newWindow {
    [super willMoveToWindow:newWindow];
    if (!newWindow) {
        [self dropWheelTimerIfNeeded];
    }
}

- (void)didMoveToWindow {
    [super didMoveToWindow];
    if (self.window && self.wheelNeeded) {
        [self startWheelTimer];
    }
}

@end
