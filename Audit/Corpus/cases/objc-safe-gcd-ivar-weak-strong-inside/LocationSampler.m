#import "LocationSampler.h"

@implementation LocationSampler {
    dispatch_source_t _sampleSource;
}

- (void)startSampling {
    _sampleSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_source_set_timer(_sampleSource, DISPATCH_TIME_NOW, 5 * NSEC_PER_SEC, NSEC_PER_SEC);
    __weak typeof(self) weakSelf = self;
    dispatch_source_set_event_handler(_sampleSource, ^{
        __strong typeof(weakSelf) strongSelf = weakSelf;
        if (!strongSelf) {
            return;
        }
        [strongSelf recordSample];
    });
    dispatch_resume(_sampleSource);
}

- (void)recordSample {
    NSLog(@"sample");
}

- (void)dealloc {
    if (_sampleSource) {
        dispatch_source_cancel(_sampleSource);
    }
}

@end
