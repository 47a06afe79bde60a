#import "ClockSync.h"

static NSTimer *sharedDriftTimer;

@implementation ClockSync

+ (void)startDriftChecks {
    if (sharedDriftTimer) {
        return;
    }
    sharedDriftTimer = [NSTimer scheduledTimerWithTimeInterval:300 target:self selector:@selector(checkDrift:) userInfo:nil repeats:YES];
}

+ (void)stopDriftChecks {
    [sharedDriftTimer invalidate];
    sharedDriftTimer = nil;
}

+ (void)checkDrift:(NSTimer *)timer {
    NSLog(@"checking clock drift");
}

@end
