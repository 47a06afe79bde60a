#import "PageFlipTimer.h"

@interface PageFlipTimer ()
@property (nonatomic, weak) id client;
@property (nonatomic, assign) SEL action;
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation PageFlipTimer

- (instancetype)initWithInterval:(NSTimeInterval)interval client:(id)client action:(SEL)action {
    if ((self = [super init])) {
        _client = client;
        _action = action;
        _timer = [NSTimer scheduledTimerWithTimeInterval:interval target:self selector:@selector(flip) userInfo:nil repeats:YES];
    }
    return self;
}

- (void)flip {
    id client = self.client;
    if ([client respondsToSelector:self.action]) {
        ((void (*)(id, SEL))[client methodForSelector:self.action])(client, self.action);
    }
}

- (void)stop {
    [self.timer invalidate];
    self.timer = nil;
}

- (void)dealloc {
    [self stop];
}

@end
