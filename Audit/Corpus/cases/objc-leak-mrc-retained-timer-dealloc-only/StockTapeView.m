#import "StockTapeView.h"

@implementation StockTapeView

- (void)startTape {
    if (tapeTimer == nil)
        tapeTimer = [[NSTimer scheduledTimerWithTimeInterval:0.2 target:self selector:@selector(scrollTape:) userInfo:nil repeats:YES] retain];
}

- (void)scrollTape:(NSTimer *)timer {
    tapeOffset += 1;
    [self setNeedsDisplay];
}

- (void)dealloc {
    [tapeTimer invalidate];
    [tapeTimer release];
    [super dealloc];
}

@end
