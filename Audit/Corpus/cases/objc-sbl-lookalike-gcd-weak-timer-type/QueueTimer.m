#import "QueueTimer.h"

@implementation QueueTimer {
    __weak id _target;
    SEL _selector;
    BOOL _repeats;
    dispatch_source_t _source;
}

+ (instancetype)scheduledTimerWithTimeInterval:(NSTimeInterval)interval
                                        target:(id)target
                                      selector:(SEL)selector
                                      userInfo:(id)userInfo
                                       repeats:(BOOL)repeats
                                 dispatchQueue:(dispatch_queue_t)queue {
    QueueTimer *timer = [QueueTimer new];
    timer->_target = target;
    timer->_selector = selector;
    timer->_repeats = repeats;
    timer->_source = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, queue);
    dispatch_source_set_timer(timer->_source, dispatch_time(DISPATCH_TIME_NOW, (int64_t)(interval * NSEC_PER_SEC)),
                              (uint64_t)(interval * NSEC_PER_SEC), 0);
    __weak QueueTimer *weakTimer = timer;
    dispatch_source_set_event_handler(timer->_source, ^{
        [weakTimer fireOnQueue];
    });
    dispatch_resume(timer->_source);
    return timer;
}

- (void)fireOnQueue {
    id target = _target;
    if (!target) {
        [self invalidate];
        return;
    }
    ((void (*)(id, SEL, id))[target methodForSelector:_selector])(target, _selector, self);
    if (!_repeats) {
        [self invalidate];
    }
}

- (void)invalidate {
    if (_source) {
        dispatch_source_cancel(_source);
        _source = nil;
    }
}

- (void)dealloc {
    [self invalidate];
}

@end
