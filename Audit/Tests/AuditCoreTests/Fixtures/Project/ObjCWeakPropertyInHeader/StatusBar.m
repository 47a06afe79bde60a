#import "StatusBar.h"

@implementation StatusBar

- (void)start {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(refresh) userInfo:nil repeats:YES];  // expect: weak-timer-property-no-fix
    self.blockTimer = [NSTimer scheduledTimerWithTimeInterval:1 repeats:YES block:^(NSTimer *t) {
        [self refresh];  // expect: weak-timer-property-no-fix
    }];
    self.strongTimer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(refresh) userInfo:nil repeats:YES];  // expect: timer-target-retain
}

- (void)refresh {}

@end
