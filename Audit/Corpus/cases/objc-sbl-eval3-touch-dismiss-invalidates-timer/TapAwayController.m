#import "TapAwayController.h"

@interface TapAwayController ()

@property (nonatomic, strong) NSTimer *tapAwayTimer;
@end

@implementation TapAwayController

- (void)viewDidLoad {
    [super viewDidLoad];
    _tapAwayTimer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(tapAwayTick) userInfo:nil repeats:true];
    self.view.backgroundColor = UIColor.blueColor;
}

- (void)tapAwayTick {
    NSLog(@"tap-away tick");
}

- (void)touchesBegan:(NSSet<UITouch *> *)touches withEvent:(UIEvent *)event {
    [_tapAwayTimer invalidate];
    _tapAwayTimer = nil;
    [self dismissViewControllerAnimated:true completion:nil];
}

- (void)dealloc {
    NSLog(@"dealloc");
}

@end
