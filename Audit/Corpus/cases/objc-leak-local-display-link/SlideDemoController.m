#import "SlideDemoController.h"

@interface SlideDemoController ()
@property (nonatomic, strong) UIView *puck;
@end

@implementation SlideDemoController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.puck = [[UIView alloc] initWithFrame:CGRectMake(0, 120, 60, 60)];
    [self.view addSubview:self.puck];
    [self startSliding];
}

- (void)startSliding {
    CADisplayLink *link = [CADisplayLink displayLinkWithTarget:self selector:@selector(advance:)];
    [link addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)advance:(CADisplayLink *)link {
    CGFloat limit = CGRectGetWidth(self.view.bounds) - 60;
    if (CGRectGetMinX(self.puck.frame) >= limit) {
        return;
    }
    self.puck.frame = CGRectOffset(self.puck.frame, 2, 0);
}

@end
