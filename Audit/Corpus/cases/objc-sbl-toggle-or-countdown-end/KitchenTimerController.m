#import "KitchenTimerController.h"

@implementation KitchenTimerController {
    NSTimer *kitchenTimer;
    BOOL kitchenRunning;
}

- (void)kitchenTickDown:(NSTimer *)timer {
    self.picker.countDownDuration = self.picker.countDownDuration - 60;
    if (self.picker.countDownDuration <= 60) {
        [self stopKitchenTimer];
    }
}

- (void)stopKitchenTimer {
    [kitchenTimer invalidate];
    kitchenTimer = nil;
    kitchenRunning = NO;
}

- (void)startKitchenTimer {
    kitchenTimer = [NSTimer scheduledTimerWithTimeInterval:60 target:self selector:@selector(kitchenTickDown:) userInfo:nil repeats:YES];
}

- (IBAction)toggleKitchenTimer:(id)sender {
    kitchenRunning = !kitchenRunning;
    if (kitchenRunning) {
        [self startKitchenTimer];
    } else {
        [self stopKitchenTimer];
    }
}

@end
