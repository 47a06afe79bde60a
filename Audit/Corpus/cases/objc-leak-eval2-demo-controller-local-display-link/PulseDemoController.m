#import "PulseDemoController.h"

@interface PulseDemoController ()

@end

@implementation PulseDemoController

- (void)viewDidLoad {
    [super viewDidLoad];
    CADisplayLink *link = [CADisplayLink displayLinkWithTarget:self selector:@selector(pulseFrame:)];
    [link addToRunLoop:[NSRunLoop currentRunLoop] forMode:NSDefaultRunLoopMode];
}

- (void)pulseFrame:(CADisplayLink *)link {
    NSLog(@"%f", link.timestamp);
}

@end
