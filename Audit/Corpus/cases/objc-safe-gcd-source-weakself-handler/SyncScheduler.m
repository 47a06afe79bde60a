#import "SyncScheduler.h"

@implementation SyncScheduler {
    dispatch_source_t _syncSource;
}

- (void)scheduleSync {
    _syncSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_source_set_timer(_syncSource, DISPATCH_TIME_NOW, 30 * NSEC_PER_SEC, NSEC_PER_SEC);
    __weak typeof(self) weakSelf = self;
    dispatch_source_set_event_handler(_syncSource, ^{
        __strong typeof(weakSelf) strongSelf = weakSelf;
        [strongSelf performSync];
    });
    dispatch_resume(_syncSource);
}

- (void)performSync {
}

@end
