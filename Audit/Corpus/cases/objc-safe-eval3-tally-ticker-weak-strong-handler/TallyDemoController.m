#import "TallyDemoController.h"
#import "TallyTicker.h"

@interface TallyDemoController ()
@property (nonatomic, strong) TallyTicker *demoTally;
@end

@implementation TallyDemoController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.demoTally = [TallyTicker tickerCountingTo:10 interval:1 step:nil done:^{
    }];
    [self.demoTally startTally];
}

@end
