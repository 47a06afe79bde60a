#import <UIKit/UIKit.h>
#import "HeartbeatCounter.h"

@interface HeartbeatDemoController : UIViewController
@end

@implementation HeartbeatDemoController

- (void)viewDidLoad {
    [super viewDidLoad];
    HeartbeatCounter * counter = [[HeartbeatCounter alloc] init];
    NSLog(@"%@", counter);
}

@end
