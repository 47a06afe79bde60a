#import "PhotoReelView.h"

@implementation PhotoReelView

- (void)startReel:(NSTimeInterval)interval {
    [self.reelTimer invalidate];
    self.reelTimer = [NSTimer scheduledTimerWithTimeInterval:interval target:self selector:@selector(showNextPhoto) userInfo:nil repeats:YES];
}

- (void)stopReel {
    [self.reelTimer invalidate];
    self.reelTimer = nil;
}

- (void)showNextPhoto {
    [self setNeedsLayout];
}

@end
