#import "EggTimerController.h"

@interface EggTimerController () {
    NSTimer *boilTimer;
    int remaining;
}
@property (weak, nonatomic) IBOutlet UILabel *remainingLabel;
@end

@implementation EggTimerController

- (void)viewDidLoad {
    [super viewDidLoad];
    remaining = 360;
}

- (IBAction)startBoiling:(id)sender {
    [boilTimer invalidate];
    boilTimer = [NSTimer scheduledTimerWithTimeInterval:1.0 target:self selector:@selector(tickBoil) userInfo:nil repeats:YES];
}

- (void)tickBoil {
    remaining -= 1;
    self.remainingLabel.text = [NSString stringWithFormat:@"%d", remaining];
    if (remaining == 0) {
        [boilTimer invalidate];
    }
}

- (IBAction)pauseBoiling:(id)sender {
    [boilTimer invalidate];
}

- (IBAction)resetBoiling:(id)sender {
    [boilTimer invalidate];
    remaining = 360;
}

@end
