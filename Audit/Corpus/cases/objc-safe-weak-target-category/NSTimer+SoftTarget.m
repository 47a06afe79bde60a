#import "NSTimer+SoftTarget.h"

@interface STBox : NSObject
@property (nonatomic, weak) id target;
@property (nonatomic, assign) SEL selector;
@end

@implementation STBox
- (void)fire:(NSTimer *)timer {
    if (!self.target) {
        [timer invalidate];
        return;
    }
    ((void (*)(id, SEL, NSTimer *))[self.target methodForSelector:self.selector])(self.target, self.selector, timer);
}
@end

@implementation NSTimer (SoftTarget)

+ (NSTimer *)st_scheduledTimerWithTimeInterval:(NSTimeInterval)interval
                                    weakTarget:(id)target
                                      selector:(SEL)selector
                                      userInfo:(id)userInfo
                                       repeats:(BOOL)repeats {
    STBox *box = [STBox new];
    box.target = target;
    box.selector = selector;
    return [self scheduledTimerWithTimeInterval:interval target:box selector:@selector(fire:) userInfo:userInfo repeats:repeats];
}

@end
