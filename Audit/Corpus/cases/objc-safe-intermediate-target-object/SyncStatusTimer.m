#import <Foundation/Foundation.h>

@interface SyncRelay : NSObject
@property (nonatomic, weak) id owner;
@property (nonatomic, assign) SEL action;
@end

@implementation SyncRelay
- (void)onTimeout {
    id owner = self.owner;
    if ([owner respondsToSelector:self.action]) {
        ((void (*)(id, SEL))[owner methodForSelector:self.action])(owner, self.action);
    }
}
@end

@interface SyncStatusTimer : NSObject
@end

@implementation SyncStatusTimer {
    NSTimer *_timer;
}

- (void)scheduleEvery:(NSTimeInterval)seconds {
    SyncRelay *relay = [[SyncRelay alloc] init];
    relay.owner = self;
    relay.action = @selector(reportStatus);
    _timer = [NSTimer scheduledTimerWithTimeInterval:seconds target:relay selector:@selector(onTimeout) userInfo:nil repeats:YES];
}

- (void)reportStatus {
    NSLog(@"sync status");
}

- (void)dealloc {
    [_timer invalidate];
}

@end
