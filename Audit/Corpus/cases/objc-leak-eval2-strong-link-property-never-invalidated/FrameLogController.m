#import "FrameLogController.h"

@interface FrameLogController ()
@property (nonatomic,strong) CADisplayLink *logLink;
@end

@implementation FrameLogController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.logLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(logLinkFired:)];
    [self.logLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)logLinkFired:(CADisplayLink*)displayLink{
    NSLog(@"--- frame");
}

- (void)didReceiveMemoryWarning {
    [super didReceiveMemoryWarning];
}

@end
