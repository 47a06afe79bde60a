#import "RetainedTickDemoController.h"

@interface RetainedTickDemoController ()
@property (nonatomic, strong) NSTimer *retainedTick;
@end

@implementation RetainedTickDemoController

- (void)prepareRetainedTickDemo {
    [super prepareRetainedTickDemo];
    _retainedTick = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(retainedTickFired) userInfo:nil repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:_retainedTick forMode:NSRunLoopCommonModes];
}

- (void)retainedTickFired {
    NSLog(@"retained tick");
}

- (void)dealloc {
    [self.retainedTick invalidate];
    self.retainedTick = nil;
}

//- (void)viewWillDisappear:(BOOL)animated {
//    [super viewWillDisappear:animated];
//    [self.retainedTick invalidate];
//    self.retainedTick = nil;
//}

@end
