// A GCD timer created in a local and then kept on self: its handler retains self.
#import "CountdownView.h"

@interface CountdownView ()
@property (nonatomic, strong) dispatch_source_t timer;
@property (nonatomic, assign) NSInteger remaining;
@end

@implementation CountdownView

- (void)startCountdown {
    dispatch_source_t timer = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_source_set_timer(timer, DISPATCH_TIME_NOW, 1 * NSEC_PER_SEC, 0);
    dispatch_source_set_event_handler(timer, ^{
        self.remaining -= 1;  // expect: block-timer-strong-self
    });
    dispatch_resume(timer);
    self.timer = timer;
}

@end
