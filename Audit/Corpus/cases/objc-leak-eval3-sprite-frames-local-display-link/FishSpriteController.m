#import "FishSpriteController.h"

@interface FishSpriteController () {
    CALayer *_swimLayer;
    NSInteger _swimFrameIndex;
    NSMutableArray *_swimFrames;
}
@end

@implementation FishSpriteController

- (void)viewDidLoad {
    [super viewDidLoad];
    _swimLayer = [[CALayer alloc] init];
    _swimLayer.bounds = CGRectMake(0, 0, 80, 30);
    [self.view.layer addSublayer:_swimLayer];
    _swimFrames = [NSMutableArray array];
    for (int n = 0; n < 8; n++) {
        [_swimFrames addObject:[UIImage imageNamed:[NSString stringWithFormat:@"swim%d", n]]];
    }
    CADisplayLink *swimLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(advanceSwimFrame)];
    [swimLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSDefaultRunLoopMode];
}

- (void)advanceSwimFrame {
    static int skipped = 0;
    if (++skipped % 6 == 0) {
        UIImage *frame = _swimFrames[_swimFrameIndex];
        _swimLayer.contents = (id)frame.CGImage;
        _swimFrameIndex = (_swimFrameIndex + 1) % _swimFrames.count;
    }
}

@end
