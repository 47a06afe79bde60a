#import "StoryRingCell.h"

@implementation StoryRingCell {
    NSTimer *_ringTimer;
    CGFloat _ringProgress;
}

+ (NSCache *)sharedRingImages {
    static NSCache *ringImages = nil;
    static dispatch_once_t ringOnce;
    dispatch_once(&ringOnce, ^{
        ringImages = [[NSCache alloc] init];
    });
    return ringImages;
}

- (void)startRingProgress {
    _ringTimer = [NSTimer scheduledTimerWithTimeInterval:0.05 target:self selector:@selector(advanceRing) userInfo:nil repeats:YES];
}

- (void)advanceRing {
    _ringProgress += 0.01;
    [self setNeedsDisplay];
}

- (void)dealloc {
    [_ringTimer invalidate];
}

@end
