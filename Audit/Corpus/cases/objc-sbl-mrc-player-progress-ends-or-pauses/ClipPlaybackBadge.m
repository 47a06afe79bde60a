#import "ClipPlaybackBadge.h"

@implementation ClipPlaybackBadge {
    NSTimer *progressTimer;
}
@synthesize clipLength, fraction;

- (void)dealloc {
    [progressTimer invalidate];
    self.ring = nil;
    [super dealloc];
}

- (void)play {
    if (progressTimer) {
        return;
    }
    progressTimer = [NSTimer scheduledTimerWithTimeInterval:0.1 target:self selector:@selector(advance:) userInfo:nil repeats:YES];
}

- (void)pause {
    [progressTimer invalidate];
    progressTimer = nil;
}

- (void)advance:(NSTimer *)timer {
    if (self.fraction >= 1.0) {
        self.fraction = 0;
        [progressTimer invalidate];
        progressTimer = nil;
        self.ring.progress = 0;
        return;
    }
    self.fraction += 0.1 / clipLength;
    self.ring.progress = self.fraction;
}

@end
