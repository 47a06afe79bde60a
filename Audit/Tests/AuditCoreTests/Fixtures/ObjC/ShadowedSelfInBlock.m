// self shadowed inside the block by a strong copy of weakSelf (what @strongify(self) expands to): no capture.
// expect-none
#import <Foundation/Foundation.h>

@interface Blinker ()
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation Blinker

- (void)start {
    __weak typeof(self) weakSelf = self;
    self.timer = [NSTimer scheduledTimerWithTimeInterval:0.5 repeats:YES block:^(NSTimer *t) {
        __strong typeof(weakSelf) self = weakSelf;   // what @strongify(self) expands to
        if (!self) { [t invalidate]; return; }
        [self blink];
    }];
}

- (void)blink {}

@end
