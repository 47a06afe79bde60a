#import "OrderStatusController.h"

@interface OrderStatusController ()
@property (nonatomic, strong) NSTimer *pollTimer;
@end

@implementation OrderStatusController

- (void)viewDidLoad {
    [super viewDidLoad];
    _pollTimer = [NSTimer timerWithTimeInterval:5 target:self selector:@selector(poll) userInfo:nil repeats:YES];
    [[NSRunLoop currentRunLoop] addTimer:_pollTimer forMode:NSRunLoopCommonModes];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    [_pollTimer invalidate];
    _pollTimer = nil;
}

- (void)poll {
    NSLog(@"polling order status");
}

- (void)dealloc {
    [_pollTimer invalidate];
}

@end
