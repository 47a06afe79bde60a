#import "LinkHeartbeat.h"

@implementation LinkHeartbeat

+ (instancetype)shared {
    static LinkHeartbeat *instance;
    static dispatch_once_t token;
    dispatch_once(&token, ^{
        instance = [[self alloc] init];
        instance.beatQueue = dispatch_queue_create("link.heartbeat", DISPATCH_QUEUE_SERIAL);
    });
    return instance;
}

- (void)startBeating {
    if (self.beatSource) {
        return;
    }
    self.beatSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, self.beatQueue);
    dispatch_source_set_timer(self.beatSource, dispatch_time(DISPATCH_TIME_NOW, 0), 10 * NSEC_PER_SEC, NSEC_PER_SEC);
    dispatch_source_set_event_handler(self.beatSource, ^{
        [self sendBeat];
    });
    dispatch_resume(self.beatSource);
}

- (void)stopBeating {
    if (self.beatSource) {
        dispatch_source_cancel(self.beatSource);
        self.beatSource = nil;
    }
}

- (void)sendBeat {
    NSLog(@"beat");
}

@end
