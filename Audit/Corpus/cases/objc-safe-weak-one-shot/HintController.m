#import "HintController.h"

@interface HintController ()
@property (nonatomic, weak) NSTimer *hintTimer;
@end

@implementation HintController

- (void)viewDidLoad {
    [super viewDidLoad];
    if (self.hintTimer == nil) {
        self.hintTimer = [NSTimer scheduledTimerWithTimeInterval:5 target:self selector:@selector(showHint) userInfo:nil repeats:NO];
    }
}

- (void)showHint {
    self.hintTimer = nil;
    NSLog(@"swipe left to archive");
}

@end
