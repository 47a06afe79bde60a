#import "GCDTicker.h"

@implementation GCDTicker {
    dispatch_source_t _source;
    GCDTickerHandler _handler;
    BOOL _running;
}

+ (instancetype)tickerEvery:(NSTimeInterval)seconds handler:(GCDTickerHandler)handler {
    GCDTicker *ticker = [GCDTicker new];
    ticker->_handler = [handler copy];
    ticker->_source = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_source_set_timer(ticker->_source, DISPATCH_TIME_NOW, (uint64_t)(seconds * NSEC_PER_SEC), 0);
    __weak GCDTicker *weakTicker = ticker;
    dispatch_source_set_event_handler(ticker->_source, ^{
        GCDTicker *strongTicker = weakTicker;
        if (strongTicker) {
            strongTicker->_handler(strongTicker);
        }
    });
    return ticker;
}

- (void)start {
    if (!_running) {
        _running = YES;
        dispatch_resume(_source);
    }
}

- (void)pause {
    if (_running) {
        _running = NO;
        dispatch_suspend(_source);
    }
}

- (void)cancel {
    if (!_running) {
        dispatch_resume(_source);
    }
    dispatch_source_cancel(_source);
}

@end
