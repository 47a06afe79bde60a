#import <UIKit/UIKit.h>

@interface UIButton (Cooldown)
- (void)cd_startCooldown:(NSInteger)seconds;
@end

@implementation UIButton (Cooldown)

- (void)cd_startCooldown:(NSInteger)seconds {
    __block NSInteger left = seconds;
    dispatch_source_t cooldown = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_source_set_timer(cooldown, dispatch_walltime(NULL, 0), NSEC_PER_SEC, 0);
    dispatch_source_set_event_handler(cooldown, ^{
        if (left <= 0) {
            dispatch_source_cancel(cooldown);
            self.enabled = YES;
            [self setTitle:@"Retry" forState:UIControlStateNormal];
        } else {
            self.enabled = NO;
            [self setTitle:[NSString stringWithFormat:@"%lds", (long)left] forState:UIControlStateNormal];
            left--;
        }
    });
    dispatch_resume(cooldown);
}

@end
