#import "BusyOverlayView.h"

@interface BusyOverlayView ()
@property (nonatomic, weak) NSTimer *graceDelayTimer;
@property (nonatomic, weak) CADisplayLink *progressFollowLink;
@property (nonatomic, assign) BOOL overlayFinished;
@end

@implementation BusyOverlayView

- (void)presentOverlay:(BOOL)animated {
    NSTimer *timer = [NSTimer timerWithTimeInterval:self.graceDelay target:self selector:@selector(graceDelayFired:) userInfo:nil repeats:NO];
    [[NSRunLoop currentRunLoop] addTimer:timer forMode:NSRunLoopCommonModes];
    self.graceDelayTimer = timer;
}

- (void)graceDelayFired:(NSTimer *)theTimer {
    [self setProgressFollowing:YES];
}

- (void)dismissOverlay:(BOOL)animated {
    [self.graceDelayTimer invalidate];
    self.overlayFinished = YES;
    [self overlayDone];
}

- (void)overlayDone {
    [self setProgressFollowing:NO];
    if (self.overlayFinished) {
        self.alpha = 0.0f;
        [self removeFromSuperview];
    }
}

- (void)setProgressFollowLink:(CADisplayLink *)progressFollowLink {
    if (progressFollowLink != _progressFollowLink) {
        [_progressFollowLink invalidate];
        _progressFollowLink = progressFollowLink;
        [_progressFollowLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSDefaultRunLoopMode];
    }
}

- (void)setTrackedProgress:(NSProgress *)trackedProgress {
    if (trackedProgress != _trackedProgress) {
        _trackedProgress = trackedProgress;
        [self setProgressFollowing:YES];
    }
}

- (void)setProgressFollowing:(BOOL)enabled {
    if (enabled && self.trackedProgress) {
        if (!self.progressFollowLink) {
            self.progressFollowLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(followTrackedProgress)];
        }
    } else {
        self.progressFollowLink = nil;
    }
}

- (void)followTrackedProgress {
    self.shownFraction = self.trackedProgress.fractionCompleted;
}

@end
