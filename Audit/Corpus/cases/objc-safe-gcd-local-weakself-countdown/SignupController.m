#import "SignupController.h"

@interface SignupController ()
@property (nonatomic, weak) IBOutlet UIButton *sendCodeButton;
@end

@implementation SignupController

- (IBAction)sendCodeTapped:(UIButton *)sender {
    __block int remaining = 60;
    dispatch_queue_t background = dispatch_get_global_queue(QOS_CLASS_UTILITY, 0);
    dispatch_source_t countdown = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, background);
    dispatch_source_set_timer(countdown, DISPATCH_TIME_NOW, NSEC_PER_SEC, 0);
    __weak typeof(self) weakSelf = self;
    dispatch_source_set_event_handler(countdown, ^{
        remaining -= 1;
        int shown = remaining;
        if (shown <= 0) {
            dispatch_source_cancel(countdown);
        }
        dispatch_async(dispatch_get_main_queue(), ^{
            UIButton *button = weakSelf.sendCodeButton;
            button.enabled = shown <= 0;
            [button setTitle:(shown <= 0 ? @"Send code" : [NSString stringWithFormat:@"%ds", shown])
                    forState:UIControlStateNormal];
        });
    });
    dispatch_resume(countdown);
}

@end
