#import "ToastPresenter.h"

@implementation ToastPresenter

- (void)showToast:(NSString *)message {
    self.toastLabel.text = message;
    self.toastLabel.hidden = NO;
    [NSTimer scheduledTimerWithTimeInterval:2.5 target:self selector:@selector(hideToast:) userInfo:nil repeats:NO];
}

- (void)hideToast:(NSTimer *)timer {
    self.toastLabel.hidden = YES;
}

@end
