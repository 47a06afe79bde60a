#import "iCarousel.h"

@interface SpinningDeck : iCarousel
@property (nonatomic) CGFloat dwellSeconds;
- (void)deckDraggingEnded;
@end
