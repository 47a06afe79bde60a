#import "WeakTimerTarget.h"

@implementation WeakTimerTarget

+ (NSTimer *)timerEvery:(NSTimeInterval)interval target:(id)target selector:(SEL)selector repeats:(BOOL)repeats {
    WeakTimerTarget *holder = [WeakTimerTarget new];
    holder.receiver = target;
    holder.action = selector;
    holder.timer = [NSTimer scheduledTimerWithTimeInterval:interval target:holder selector:@selector(relay:) userInfo:nil repeats:repeats];
    return holder.timer;
}

- (void)relay:(NSTimer *)timer {
    id receiver = self.receiver;
    if (receiver) {
        ((void (*)(id, SEL, NSTimer *))[receiver methodForSelector:self.action])(receiver, self.action, timer);
    } else {
        [self.timer invalidate];
    }
}

@end
