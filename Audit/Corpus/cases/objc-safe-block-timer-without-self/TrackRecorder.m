#import "TrackRecorder.h"

@interface NSTimer (Weakly)
+ (NSTimer *)wk_scheduledTimerWithTimeInterval:(NSTimeInterval)interval block:(void (^)(void))block repeats:(BOOL)repeats;
@end

@implementation NSTimer (Weakly)

+ (NSTimer *)wk_scheduledTimerWithTimeInterval:(NSTimeInterval)interval block:(void (^)(void))block repeats:(BOOL)repeats {
    return [self scheduledTimerWithTimeInterval:interval target:self selector:@selector(wk_run:) userInfo:[block copy] repeats:repeats];
}

+ (void)wk_run:(NSTimer *)timer {
    void (^block)(void) = timer.userInfo;
    if (block) block();
}

@end

@implementation TrackRecorder {
    NSTimer *_heartbeat;
}

- (void)startRecordingNamed:(NSString *)name {
    NSString *label = [name copy];
    _heartbeat = [NSTimer wk_scheduledTimerWithTimeInterval:10 block:^{
        NSLog(@"still recording %@", label);
    } repeats:YES];
}

- (void)dealloc {
    [_heartbeat invalidate];
}

@end
