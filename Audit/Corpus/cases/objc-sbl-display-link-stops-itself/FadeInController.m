#import "FadeInController.h"

@interface FadeInController ()
@property (nonatomic, strong) CADisplayLink *fadeLink;
@property (nonatomic, assign) CFTimeInterval startedAt;
@end

@implementation FadeInController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.view.alpha = 0;
    self.startedAt = CACurrentMediaTime();
    self.fadeLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(stepFade:)];
    [self.fadeLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)stepFade:(CADisplayLink *)link {
    CGFloat progress = (CACurrentMediaTime() - self.startedAt) / 0.4;
    self.view.alpha = MIN(progress, 1.0);
    if (progress >= 1.0) {
        [self.fadeLink invalidate];
        self.fadeLink = nil;
    }
}

@end
