#import "StatusPoller.h"

@interface RideStatusController : UIViewController
@property (nonatomic, strong) StatusPoller *poller;
@end

@implementation RideStatusController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.poller = [[StatusPoller alloc] initWithAction:^{
        NSLog(@"refresh ride status");
    }];
}

@end
