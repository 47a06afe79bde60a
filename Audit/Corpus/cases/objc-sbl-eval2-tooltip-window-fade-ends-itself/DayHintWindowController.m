#import "DayHintWindowController.h"

@implementation DayHintWindowController
{
    NSTimer *_hintFadeTimer;
}

- (void)finishHint
{
    [NSObject cancelPreviousPerformRequestsWithTarget:self selector:@selector(revealHint) object:nil];
    [_hintFadeTimer invalidate];
    _hintFadeTimer = nil;
    [self.window orderOut:nil];
}

- (void)fadeHint
{
    if (self.window.occlusionState & NSWindowOcclusionStateVisible &&
        _hintFadeTimer == nil) {
        _hintFadeTimer = [NSTimer scheduledTimerWithTimeInterval:1/30. target:self selector:@selector(hintFadeStep:) userInfo:nil repeats:YES];
    }
}

- (void)hintFadeStep:(NSTimer *)timer
{
    CGFloat alpha = self.window.alphaValue - 0.07;
    if (alpha <= 0) {
        [self finishHint];
    }
    else {
        self.window.alphaValue = alpha;
    }
}

- (void)revealHint
{
    self.window.alphaValue = 1;
    [self.window orderFront:nil];
}

@end
