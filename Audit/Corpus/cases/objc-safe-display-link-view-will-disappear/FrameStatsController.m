#import "FrameStatsController.h"

@interface FrameStatsController ()
@property (nonatomic, strong) CADisplayLink *statsLink;
@end

@implementation FrameStatsController

- (void)viewDidLoad {
    [super viewDidLoad];
    _statsLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(collectFrameStats:)];
    [_statsLink addToRunLoop:[NSRunLoop currentRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    if (_statsLink) {
        [_statsLink invalidate];
    }
}

- (void)collectFrameStats:(CADisplayLink *)link {
    NSLog(@"%f %f", link.duration, link.timestamp);
}

@end
