#import "PaymentDeadlineBanner.h"
#import "NSTimer+DetachedRelay.h"

@interface PaymentDeadlineBanner () {
    NSTimer *_payDeadlineTimer;
    NSInteger _secondsToPay;
}
@property (nonatomic, strong) UILabel *payDeadlineLabel;
@end

@implementation PaymentDeadlineBanner

- (void)beginPayDeadline {
    if (!_payDeadlineTimer && _secondsToPay > 0) {
        _payDeadlineTimer = [NSTimer scheduledDetachedTimerWithTimeInterval:1.0 target:self selector:@selector(payDeadlineTick) userinfo:nil repeats:YES];
        [_payDeadlineTimer fire];
    }
}

- (void)payDeadlineTick {
    _secondsToPay--;
    self.payDeadlineLabel.text = [NSString stringWithFormat:@"%02ld:%02ld", (long)_secondsToPay / 60, (long)_secondsToPay % 60];
}

@end
