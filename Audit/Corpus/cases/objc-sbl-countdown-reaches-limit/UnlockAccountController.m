#import "UnlockAccountController.h"

@implementation UnlockAccountController {
    NSTimer *unlockTimer;
    int unlockCount;
}

- (IBAction)sendUnlockCodeTapped:(id)sender {
    if (![unlockTimer isValid]) {
        unlockCount = 0;
        unlockTimer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(unlockTick:) userInfo:nil repeats:YES];
    }
}

- (void)unlockTick:(NSTimer *)timer {
    unlockCount++;
    int left = 180 - unlockCount;
    self.unlockLabel.text = [NSString stringWithFormat:@"%02d:%02d", left / 60, left % 60];
    if (unlockCount == 180) {
        [unlockTimer invalidate];
    }
}

@end
