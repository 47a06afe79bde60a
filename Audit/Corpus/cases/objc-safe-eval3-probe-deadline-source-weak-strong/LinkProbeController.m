#import "LinkProbeController.h"

@interface LinkProbeController () {
    dispatch_queue_t probeQueue;
    dispatch_source_t probeDeadline;
}
@end

@implementation LinkProbeController

- (void)viewDidLoad {
    [super viewDidLoad];
    probeQueue = dispatch_queue_create("link.probe", NULL);
    [self armProbeDeadline:5];
}

- (void)armProbeDeadline:(NSTimeInterval)seconds {
    if (seconds >= 0.0) {
        probeDeadline = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, probeQueue);
        __weak LinkProbeController *weakSelf = self;
        dispatch_source_set_event_handler(probeDeadline, ^{ @autoreleasepool {
            __strong LinkProbeController *strongSelf = weakSelf;
            if (strongSelf == nil) return;
            [strongSelf probeDeadlinePassed];
        }});
        dispatch_time_t start = dispatch_time(DISPATCH_TIME_NOW, (int64_t)(seconds * NSEC_PER_SEC));
        dispatch_source_set_timer(probeDeadline, start, DISPATCH_TIME_FOREVER, 0);
        dispatch_resume(probeDeadline);
    }
}

- (void)probeDeadlinePassed {
    NSLog(@"probe deadline passed");
}

@end
