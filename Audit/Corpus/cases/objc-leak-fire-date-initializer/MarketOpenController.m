#import "MarketOpenController.h"

@implementation MarketOpenController {
    NSTimer *_openingBell;
}

- (void)scheduleFrom:(NSDate *)opening {
    _openingBell = [[NSTimer alloc] initWithFireDate:opening
                                            interval:60
                                              target:self
                                            selector:@selector(minuteElapsed:)
                                            userInfo:nil
                                             repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:_openingBell forMode:NSDefaultRunLoopMode];
}

- (void)minuteElapsed:(NSTimer *)timer {
    NSLog(@"market minute");
}

@end
