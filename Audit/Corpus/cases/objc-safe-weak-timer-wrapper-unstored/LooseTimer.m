#import "LooseTimer.h"

@implementation LooseTimer

+ (NSTimer *)scheduledTimerWithTimeInterval:(NSTimeInterval)interval
                                     target:(id)target
                                   selector:(SEL)selector
                                   userInfo:(id)userInfo
                                    repeats:(BOOL)repeats {
    LooseTimer *loose = [[LooseTimer alloc] init];
    loose.target = target;
    loose.selector = selector;
    loose.timer = [NSTimer scheduledTimerWithTimeInterval:interval target:loose selector:@selector(fire:) userInfo:userInfo repeats:repeats];
    return loose.timer;
}

- (void)fire:(NSTimer *)timer {
    if (self.target) {
        ((void (*)(id, SEL, NSTimer *))[self.target methodForSelector:self.selector])(self.target, self.selector, timer);
    } else {
        [self.timer invalidate];
    }
}

@end
