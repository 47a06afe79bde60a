#import "UILabel+OfferCountdown.h"

@implementation UILabel (OfferCountdown)

- (void)offerCountdown:(NSInteger)seconds;
{
    self.text = [NSString stringWithFormat:@"%ld", (long)seconds];
    __block NSInteger remaining = seconds;
    dispatch_queue_t queue = dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0);

    dispatch_source_t _timer = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, queue);

    dispatch_source_set_timer(_timer, dispatch_walltime(NULL, 0), 1.0 * NSEC_PER_SEC, 0);

    dispatch_source_set_event_handler(_timer, ^{

        if (remaining <= 0) {
            dispatch_source_cancel(_timer);
            dispatch_async(dispatch_get_main_queue(), ^{
                self.text = @"Ended";
            });

        } else {
            dispatch_async(dispatch_get_main_queue(), ^{
                self.text = [NSString stringWithFormat:@"%ld", (long)remaining];
            });
            remaining--;
        }
    });
    dispatch_resume(_timer);
}

@end
