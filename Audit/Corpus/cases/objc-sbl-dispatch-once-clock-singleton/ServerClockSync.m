#import "ServerClockSync.h"

static ServerClockSync *sClockSync = nil;

@implementation ServerClockSync {
    NSTimer *_syncTimer;
    NSTimeInterval _offset;
}

+ (instancetype)sharedClockSync {
    static dispatch_once_t onceToken;
    dispatch_once(&onceToken, ^{
        sClockSync = [[self alloc] init];
    });
    return sClockSync;
}

- (void)beginClockSync {
    _syncTimer = [NSTimer scheduledTimerWithTimeInterval:300 target:self selector:@selector(syncWithServer) userInfo:nil repeats:YES];
}

- (void)syncWithServer {
    _offset = 0;
}

@end
