#import "CountdownHub.h"

NSString * const CountdownHubTickNotification = @"CountdownHubTick";

@interface CountdownHub ()
@property (nonatomic, strong) NSTimer *hubTimer;
@property (nonatomic, assign, readwrite) NSInteger elapsed;
@end

@implementation CountdownHub

+ (instancetype)sharedHub {
    static CountdownHub *hub;
    static dispatch_once_t once;
    dispatch_once(&once, ^{ hub = [CountdownHub new]; });
    return hub;
}

- (void)start {
    if (self.hubTimer) return;
    self.hubTimer = [NSTimer timerWithTimeInterval:1 target:self selector:@selector(hubTick) userInfo:nil repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:self.hubTimer forMode:NSRunLoopCommonModes];
}

- (void)reload {
    self.elapsed = 0;
}

- (void)hubTick {
    self.elapsed += 1;
    [[NSNotificationCenter defaultCenter] postNotificationName:CountdownHubTickNotification object:nil];
}

@end
