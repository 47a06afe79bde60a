#import "SmsCodeController.h"

@implementation SmsCodeController

- (IBAction)smsCodeTapped:(UIButton *)sender {
    __block NSInteger smsSeconds = 60;
    dispatch_queue_t smsQueue = dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0);
    dispatch_source_t smsSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, smsQueue);
    dispatch_source_set_timer(smsSource, dispatch_walltime(NULL, 0), NSEC_PER_SEC, 0);
    dispatch_source_set_event_handler(smsSource, ^{
        dispatch_async(dispatch_get_main_queue(), ^{
            if (smsSeconds >= 0) {
                sender.enabled = NO;
                [sender setTitle:[NSString stringWithFormat:@"%lds", (long)smsSeconds] forState:UIControlStateNormal];
                smsSeconds--;
            } else {
                dispatch_source_cancel(smsSource);
                sender.enabled = YES;
            }
        });
    });
    dispatch_resume(smsSource);
}

@end
