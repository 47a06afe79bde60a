#import "NSTimer+SoftTarget.h"

@interface LyricsScrollerView : UIView
@property (nonatomic, strong) NSTimer *lineTimer;
@end

@implementation LyricsScrollerView

- (void)startFollowingPlayback {
    self.lineTimer = [NSTimer st_scheduledTimerWithTimeInterval:0.25
                                                     weakTarget:self
                                                       selector:@selector(advanceLine:)
                                                       userInfo:nil
                                                        repeats:YES];
}

- (void)advanceLine:(NSTimer *)timer {
    [self setNeedsLayout];
}

- (void)dealloc {
    [_lineTimer invalidate];
}

@end
