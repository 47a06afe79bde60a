#import "GallerySlideView.h"

@implementation GallerySlideView
@synthesize advanceTimer;

- (void)advance {
    CGFloat width = self.frame.size.width;
    CGPoint offset = _pager.contentOffset;
    CGFloat next = (self.pageIndex == self.pageCount - 1) ? 0 : offset.x + width;
    [_pager scrollRectToVisible:CGRectMake(next, 0, width, self.frame.size.height) animated:YES];
}

- (void)beginAdvancing:(double)seconds {
    if (!self.advanceTimer || self.advanceTimer.timeInterval != seconds) {
        [self.advanceTimer invalidate];
        self.advanceTimer = [NSTimer scheduledTimerWithTimeInterval:seconds
                                                             target:self
                                                           selector:@selector(advance)
                                                           userInfo:nil
                                                            repeats:YES];
    }
}

- (void)endAdvancing {
    [self.advanceTimer invalidate];
    self.advanceTimer = nil;
}

- (void)dealloc {
    [self endAdvancing];
    [super dealloc];
}

@end
