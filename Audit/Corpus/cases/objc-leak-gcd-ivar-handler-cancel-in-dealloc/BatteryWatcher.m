#import "BatteryWatcher.h"

@implementation BatteryWatcher {
    dispatch_source_t _sampler;
}

- (void)startSampling {
    _sampler = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_source_set_timer(_sampler, dispatch_time(DISPATCH_TIME_NOW, 0), 30 * NSEC_PER_SEC, NSEC_PER_SEC);
    dispatch_source_set_event_handler(_sampler, ^{
        [self recordLevel:[UIDevice currentDevice].batteryLevel];
    });
    dispatch_resume(_sampler);
}

- (void)recordLevel:(float)level {
    NSLog(@"battery %.0f%%", level * 100);
}

- (void)dealloc {
    dispatch_source_cancel(_sampler);
}

@end
