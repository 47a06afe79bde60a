#import "KennelWatchdog.h"

@implementation KennelWatchdog {
    dispatch_source_t barkSource;
}

- (instancetype)init {
    if (self = [super init]) {
        dispatch_queue_t barkQueue = dispatch_queue_create("kennel.watchdog", DISPATCH_QUEUE_SERIAL);
        barkSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, barkQueue);
        dispatch_source_set_timer(barkSource, DISPATCH_TIME_NOW, 2 * NSEC_PER_SEC, 0);
        dispatch_source_set_event_handler(barkSource, ^{
            NSLog(@"watchdog still alive");
        });
        dispatch_resume(barkSource);
    }
    return self;
}

- (void)dealloc {
    dispatch_source_cancel(barkSource);
}

- (void)silenceWatchdog {
    dispatch_source_cancel(barkSource);
}

@end
