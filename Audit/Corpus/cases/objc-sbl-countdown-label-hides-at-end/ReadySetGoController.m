#import "ReadySetGoController.h"

@implementation ReadySetGoController {
    NSTimer *goTimer;
    int goSeconds;
}

- (void)goTimerFired {
    if (goSeconds > 0) {
        goSeconds -= 1;
        self.goLabel.text = [NSString stringWithFormat:@"%d", goSeconds];
    } else {
        self.goLabel.hidden = YES;
        [goTimer invalidate];
    }
}

- (IBAction)readyTapped:(id)sender {
    goSeconds = 3;
    self.goLabel.hidden = NO;
    [goTimer invalidate];
    goTimer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(goTimerFired) userInfo:nil repeats:YES];
}

@end
