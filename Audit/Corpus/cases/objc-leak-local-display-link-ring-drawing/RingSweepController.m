#import "RingSweepController.h"

@interface RingSweepController ()
@property (nonatomic, strong) CAShapeLayer *sweepLayer;
@property (nonatomic, assign) CGFloat sweepAngle;
@end

@implementation RingSweepController

- (void)viewDidLoad {
    [super viewDidLoad];
    CADisplayLink *sweepLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(drawSweep)];
    [sweepLink addToRunLoop:[NSRunLoop currentRunLoop] forMode:NSDefaultRunLoopMode];
    _sweepLayer = [[CAShapeLayer alloc] init];
    [self.view.layer addSublayer:_sweepLayer];
}

- (void)drawSweep {
    _sweepAngle += M_PI / 150;
    UIBezierPath *path = [UIBezierPath bezierPathWithArcCenter:self.view.center radius:50 startAngle:0 endAngle:_sweepAngle clockwise:YES];
    _sweepLayer.path = path.CGPath;
}

@end
