#import "HeartbeatCounter.h"

@interface HeartbeatCounter ()

@property (nonatomic, strong) NSTimer * beatTimer;

@end

@implementation HeartbeatCounter

- (instancetype)init {
    if (self = [super init]) {
        _beatTimer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(heartbeatTick) userInfo:nil repeats:YES];
    }
    return self;
}

- (void)heartbeatTick {
    NSLog(@"beat");
}

- (void)dealloc {
    [_beatTimer invalidate];
    _beatTimer = nil;
    NSLog(@"%@ gone", [self class]);
}

@end
