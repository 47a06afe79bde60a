#import "TimeoutDemoController.h"

@interface TimeoutDemoController ()

@end

@implementation TimeoutDemoController

- (void)viewDidLoad {
    [super viewDidLoad];
}

- (void)timeoutDemoFired:(id)info {
    NSLog(@"timeout demo fired");
}

- (IBAction)startTimeoutDemo:(id)sender {
    // made without scheduling, then added by hand
    NSTimer *demoTimer = [NSTimer timerWithTimeInterval:1 target:self selector:@selector(timeoutDemoFired:) userInfo:nil repeats:YES];
    NSRunLoop *loop = [NSRunLoop currentRunLoop];
    [loop addTimer:demoTimer forMode:NSDefaultRunLoopMode];
}

@end
