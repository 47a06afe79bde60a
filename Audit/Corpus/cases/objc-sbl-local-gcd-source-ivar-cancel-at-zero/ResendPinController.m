#import "ResendPinController.h"

@interface ResendPinController ()
@property (weak, nonatomic) IBOutlet UIButton *pinButton;
@end

@implementation ResendPinController

- (IBAction)pinButtonTapped:(UIButton *)sender {
    __block NSInteger pinTimeout = 30;
    dispatch_queue_t pinQueue = dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0);
    dispatch_source_t _pinSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, pinQueue);
    dispatch_source_set_timer(_pinSource, dispatch_time(DISPATCH_TIME_NOW, 0), NSEC_PER_SEC, 0);
    dispatch_source_set_event_handler(_pinSource, ^{
        if (pinTimeout <= 0) {
            dispatch_source_cancel(_pinSource);
            dispatch_async(dispatch_get_main_queue(), ^{
                [_pinButton setTitle:@"Resend" forState:UIControlStateNormal];
            });
        } else {
            dispatch_async(dispatch_get_main_queue(), ^{
                [_pinButton setTitle:[NSString stringWithFormat:@"%lds", (long)pinTimeout] forState:UIControlStateNormal];
            });
            pinTimeout--;
        }
    });
    dispatch_resume(_pinSource);
}

@end
