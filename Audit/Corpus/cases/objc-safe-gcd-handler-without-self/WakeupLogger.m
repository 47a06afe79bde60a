#import "WakeupLogger.h"

@implementation WakeupLogger {
    dispatch_source_t _wakeSource;
}

- (void)startLogging {
    _wakeSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_source_set_timer(_wakeSource, dispatch_time(DISPATCH_TIME_NOW, 0), 3 * NSEC_PER_SEC, 0);
    dispatch_source_set_event_handler(_wakeSource, ^{
        NSLog(@"wake");
    });
    dispatch_source_set_cancel_handler(_wakeSource, ^{
        NSLog(@"logger cancelled");
    });
    dispatch_resume(_wakeSource);
}

- (void)stopLogging {
    dispatch_source_cancel(_wakeSource);
}

@end
