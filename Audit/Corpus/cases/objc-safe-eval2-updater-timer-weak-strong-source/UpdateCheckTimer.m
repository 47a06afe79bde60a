#import "UpdateCheckTimer.h"

@implementation UpdateCheckTimer
{
    dispatch_source_t _checkSource;
    __weak id<UpdateCheckTimerDelegate> _checkDelegate;
}

- (instancetype)initWithDelegate:(id<UpdateCheckTimerDelegate>)delegate
{
    self = [super init];
    if (self != nil) {
        _checkDelegate = delegate;
    }
    return self;
}

- (void)fireAfterDelay:(NSTimeInterval)delay
{
    _checkSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_time_t when = dispatch_walltime(NULL, (int64_t)(delay * NSEC_PER_SEC));
    dispatch_source_set_timer(_checkSource, when, DISPATCH_TIME_FOREVER, 60 * NSEC_PER_SEC);

    __weak __typeof__(self) weakSelf = self;
    dispatch_source_set_event_handler(_checkSource, ^{
        __typeof__(self) strongSelf = weakSelf;
        if (strongSelf != nil) {
            [strongSelf->_checkDelegate updateCheckTimerFired];
        }
    });

    dispatch_resume(_checkSource);
}

- (void)invalidate
{
    if (_checkSource != nil) {
        dispatch_source_cancel(_checkSource);
        _checkSource = nil;
    }
}

@end
