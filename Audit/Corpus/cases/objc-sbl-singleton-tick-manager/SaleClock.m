#import "SaleClock.h"

NSString * const SaleClockDidTickNotification = @"SaleClockDidTick";

@interface SaleClock ()
@property (nonatomic, strong) NSTimer *clock;
@end

@implementation SaleClock

+ (instancetype)sharedClock {
    static SaleClock *shared;
    static dispatch_once_t once;
    dispatch_once(&once, ^{
        shared = [[SaleClock alloc] init];
    });
    return shared;
}

- (void)resume {
    if (self.clock) {
        return;
    }
    self.clock = [NSTimer timerWithTimeInterval:1.0 target:self selector:@selector(fire) userInfo:nil repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:self.clock forMode:NSRunLoopCommonModes];
}

- (void)pause {
    [self.clock invalidate];
    self.clock = nil;
}

- (void)fire {
    [[NSNotificationCenter defaultCenter] postNotificationName:SaleClockDidTickNotification object:self];
}

@end
