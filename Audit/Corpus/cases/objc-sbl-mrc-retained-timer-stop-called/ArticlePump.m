#import "ArticlePump.h"

@implementation ArticlePump

- (void)beginPumping {
    if (pumpTimer == nil)
        pumpTimer = [[NSTimer scheduledTimerWithTimeInterval:1.0 target:self selector:@selector(pumpArticles:) userInfo:nil repeats:YES] retain];
}

- (void)endPumping {
    [pumpTimer invalidate];
    [pumpTimer release];
    pumpTimer = nil;
}

- (void)pumpArticles:(NSTimer *)timer {
}

@end
