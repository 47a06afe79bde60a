#import "OtpSendButton.h"

@implementation OtpSendButton

- (void)beginOtpCountdown {
    __block dispatch_source_t _otpSource;
    self.enabled = NO;
    __block int otpRemaining = 60;
    dispatch_queue_t otpQueue = dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0);
    _otpSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, otpQueue);
    dispatch_source_set_timer(_otpSource, dispatch_walltime(NULL, 0), 1.0 * NSEC_PER_SEC, 0);
    dispatch_source_set_event_handler(_otpSource, ^{
        if (otpRemaining <= 0) {
            dispatch_source_cancel(_otpSource);
            _otpSource = nil;
            dispatch_async(dispatch_get_main_queue(), ^{
                [self setTitle:@"Send code" forState:UIControlStateNormal];
                self.enabled = YES;
            });
        } else {
            NSString *caption = [NSString stringWithFormat:@"Retry in %d s", otpRemaining % 60];
            dispatch_async(dispatch_get_main_queue(), ^{
                [self setTitle:caption forState:UIControlStateNormal];
                [self setTitle:caption forState:UIControlStateDisabled];
            });
            otpRemaining--;
        }
    });
    dispatch_resume(_otpSource);
}

@end

@implementation UIButton (OtpCountdown)

- (void)beginOtpCountdownFrom:(int)seconds {
    __block dispatch_source_t _otpSource;
    self.enabled = NO;
    __block int otpRemaining = seconds;
    dispatch_queue_t otpQueue = dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0);
    _otpSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, otpQueue);
    dispatch_source_set_timer(_otpSource, dispatch_walltime(NULL, 0), 1.0 * NSEC_PER_SEC, 0);
    dispatch_source_set_event_handler(_otpSource, ^{
        if (otpRemaining <= 0) {
            dispatch_source_cancel(_otpSource);
            _otpSource = nil;
            dispatch_async(dispatch_get_main_queue(), ^{
                [self setTitle:@"Send code" forState:UIControlStateNormal];
                self.enabled = YES;
            });
        } else {
            otpRemaining--;
            NSString *caption = [NSString stringWithFormat:@"%d s", otpRemaining % 60];
            dispatch_async(dispatch_get_main_queue(), ^{
                [self setTitle:caption forState:UIControlStateNormal];
            });
        }
    });
    dispatch_resume(_otpSource);
}

@end
