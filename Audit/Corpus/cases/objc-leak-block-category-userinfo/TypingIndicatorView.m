#import "NSTimer+Callbacks.h"

@interface TypingIndicatorView : UIView
@property (nonatomic, strong) NSTimer *dotTimer;
@property (nonatomic, assign) NSInteger dots;
@end

@implementation TypingIndicatorView

- (void)animateDots {
    self.dotTimer = [NSTimer cb_every:0.4 repeats:YES run:^{
        self.dots = (self.dots + 1) % 4;
        [self setNeedsDisplay];
    }];
}

@end
