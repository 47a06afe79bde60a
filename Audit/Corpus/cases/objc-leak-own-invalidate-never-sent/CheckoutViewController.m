#import "CheckoutViewController.h"
#import "DotsSpinnerView.h"

@interface CheckoutViewController ()
@property (nonatomic, strong) DotsSpinnerView *paySpinner;
@property (nonatomic, weak) NSTimer *timeoutTimer;
@end

@implementation CheckoutViewController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.paySpinner = [[DotsSpinnerView alloc] init];
    [self.view addSubview:self.paySpinner];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    [self.timeoutTimer invalidate];
}

@end
