#import "BoardingPassController.h"

@interface BoardingPassController ()
@property (nonatomic, strong) NSTimer *gateTimer;
@property (nonatomic, weak) IBOutlet UILabel *gateLabel;
@end

@implementation BoardingPassController

+ (NSDateFormatter *)gateTimeFormatter {
    static NSDateFormatter *formatter;
    static dispatch_once_t onceToken;
    dispatch_once(&onceToken, ^{
        formatter = [[NSDateFormatter alloc] init];
        formatter.dateFormat = @"HH:mm";
    });
    return formatter;
}

- (void)viewDidLoad {
    [super viewDidLoad];
    self.gateTimer = [NSTimer scheduledTimerWithTimeInterval:30 target:self selector:@selector(refreshGateTime) userInfo:nil repeats:YES];
}

- (void)refreshGateTime {
    self.gateLabel.text = [[BoardingPassController gateTimeFormatter] stringFromDate:[NSDate date]];
}

- (void)dealloc {
    [_gateTimer invalidate];
}

@end
