#import "PulseDriver.h"

@interface BadgeView : UIView
@property (nonatomic, strong) PulseDriver *driver;
@end

@implementation BadgeView

- (void)didMoveToWindow {
    [super didMoveToWindow];
    if (self.window && !self.driver) {
        self.driver = [PulseDriver new];
        __weak typeof(self) weakSelf = self;
        self.driver.onPulse = ^(CFTimeInterval timestamp) {
            weakSelf.alpha = 0.5 + 0.5 * sin(timestamp * 4);
        };
        [self.driver beginPulsing];
    }
}

@end
