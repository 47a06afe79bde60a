#import "ParallaxController.h"

@interface ParallaxController ()
@property (nonatomic, strong) CADisplayLink *parallaxLink;
@end

@implementation ParallaxController

- (void)viewDidLoad {
    [super viewDidLoad];
    _parallaxLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(shiftLayers:)];
    [_parallaxLink addToRunLoop:[NSRunLoop currentRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    CADisplayLink *link = self.parallaxLink;
    [link invalidate];
    self.parallaxLink = nil;
}

- (void)shiftLayers:(CADisplayLink *)link {
}

@end
