#import "SmsTimeButton.h"
#import "NSTimer+BlockRelay.h"

static const NSInteger smsTotalSeconds = 60;

@interface SmsTimeButton ()
@property (nonatomic, strong) NSTimer *smsTimer;
@property (nonatomic, assign) NSInteger smsSecondsLeft;
@end

@implementation SmsTimeButton

- (void)dealloc {
    [_smsTimer invalidate];
    _smsTimer = nil;
}

- (void)beginSmsCountdown {
    self.smsSecondsLeft = smsTotalSeconds;
    self.userInteractionEnabled = NO;
    __weak typeof(self) weakSelf = self;
    self.smsTimer = [NSTimer relay_scheduleTimerWithTimeInterval:1 block:^{
        __strong typeof(self) strongSelf = weakSelf;
        --strongSelf.smsSecondsLeft;
        [strongSelf setTitle:[NSString stringWithFormat:@"%lds", (long)strongSelf.smsSecondsLeft] forState:UIControlStateNormal];
        if (strongSelf.smsSecondsLeft == 0) {
            [strongSelf endSmsCountdown];
        }
    } repeats:YES];
}

- (void)endSmsCountdown {
    if (self.smsTimer.isValid) {
        [self.smsTimer invalidate];
        self.smsTimer = nil;
    }
    [self setTitle:@"Get code" forState:UIControlStateNormal];
    self.userInteractionEnabled = YES;
}

@end
