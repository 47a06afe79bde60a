#import "PageFlipTimer.h"

@interface PromoCarousel : UIView
@property (nonatomic, strong) PageFlipTimer *flipper;
@property (nonatomic, assign) NSInteger page;
@end

@implementation PromoCarousel

- (void)didMoveToWindow {
    [super didMoveToWindow];
    if (self.window && !self.flipper) {
        self.flipper = [[PageFlipTimer alloc] initWithInterval:4 client:self action:@selector(showNextPage)];
    }
}

- (void)removeFromSuperview {
    [self.flipper stop];
    self.flipper = nil;
    [super removeFromSuperview];
}

- (void)showNextPage {
    self.page += 1;
}

@end
