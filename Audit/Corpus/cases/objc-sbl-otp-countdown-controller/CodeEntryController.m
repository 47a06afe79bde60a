#import "CodeEntryController.h"

@interface CodeEntryController () {
    NSTimer *resendTimer;
    int minutesLeft;
    int secondsLeft;
}
@property (nonatomic, weak) IBOutlet UILabel *resendLabel;
@end

@implementation CodeEntryController

- (void)viewDidLoad {
    [super viewDidLoad];
    minutesLeft = 1;
    secondsLeft = 30;
    resendTimer = [NSTimer scheduledTimerWithTimeInterval:1
                                                   target:self
                                                 selector:@selector(countDown)
                                                 userInfo:nil
                                                  repeats:YES];
}

- (void)countDown {
    if (minutesLeft == 0 && secondsLeft == 0) {
        [resendTimer invalidate];
        resendTimer = nil;
        self.resendLabel.text = @"Resend code";
        return;
    }
    if (secondsLeft == 0) {
        minutesLeft -= 1;
        secondsLeft = 59;
    } else {
        secondsLeft -= 1;
    }
    self.resendLabel.text = [NSString stringWithFormat:@"Resend in %d:%02d", minutesLeft, secondsLeft];
}

@end
