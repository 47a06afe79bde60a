// Instance variables without an underscore are self->name in a block; parameters and locals of the same
// name are not.
#import <UIKit/UIKit.h>

@implementation StopwatchController {
    NSTimer *timer;
    NSInteger ticks;
}

- (void)viewDidLoad {
    [super viewDidLoad];
    timer = [NSTimer scheduledTimerWithTimeInterval:1 repeats:YES block:^(NSTimer *t) {
        ticks++;  // expect: block-timer-strong-self
    }];
}

@end

@implementation LapCounter {
    NSTimer *timer;
    NSInteger laps;
}

- (void)startWithLaps:(NSInteger)laps {
    NSInteger total = laps;
    timer = [NSTimer scheduledTimerWithTimeInterval:1 repeats:YES block:^(NSTimer *t) {
        NSLog(@"%ld %ld", (long)laps, (long)total);
        [t invalidate];
    }];
}

- (void)viewWillDisappear:(BOOL)animated {
    [timer invalidate];
}

@end
