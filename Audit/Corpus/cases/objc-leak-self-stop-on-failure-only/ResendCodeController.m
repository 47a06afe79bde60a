#import "ResendCodeController.h"

@implementation ResendCodeController {
    NSTimer *resendTimer;
    NSError *lastResendError;
    int secondsWaited;
}

- (IBAction)requestCodeTapped:(id)sender {
    resendTimer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(resendTick:) userInfo:nil repeats:YES];
}

- (void)resendTick:(NSTimer *)timer {
    secondsWaited++;
    self.waitLabel.text = [NSString stringWithFormat:@"%d", secondsWaited];
    if (lastResendError) {
        [resendTimer invalidate];
    }
}

@end
