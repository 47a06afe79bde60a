#import "SpinningDeck.h"

#define DECK_DEFAULT_DWELL 5.0

@interface SpinningDeck ()
@property (nonatomic, strong) NSTimer *spinTimer;
@end

@implementation SpinningDeck

- (id)initWithCoder:(NSCoder *)aDecoder {
    if ((self = [super initWithCoder:aDecoder])) {
        self.dwellSeconds = DECK_DEFAULT_DWELL;
        [self restartSpinTimer];
    }
    return self;
}

- (id)initWithFrame:(CGRect)frame {
    if ((self = [super initWithFrame:frame])) {
        self.dwellSeconds = DECK_DEFAULT_DWELL;
        [self restartSpinTimer];
    }
    return self;
}

- (void)dealloc {
    [self.spinTimer invalidate];
}

- (void)restartSpinTimer {
    if (self.spinTimer) [self.spinTimer invalidate];
    self.spinTimer = [NSTimer scheduledTimerWithTimeInterval:_dwellSeconds target:self selector:@selector(spinToNextCard:) userInfo:nil repeats:YES];
}

- (void)spinToNextCard:(id)sender {
    [super scrollByNumberOfItems:1 duration:0.3];
}

- (void)setDwellSeconds:(CGFloat)dwellSeconds {
    _dwellSeconds = dwellSeconds;
    [self restartSpinTimer];
}

- (void)deckDraggingEnded {
    [self restartSpinTimer];
}

@end
