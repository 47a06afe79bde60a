#import "MarchingAntsView.h"

@interface SelectionController : UIViewController
@property (nonatomic, weak) IBOutlet MarchingAntsView *antsView;
@end

@implementation SelectionController

- (void)viewWillAppear:(BOOL)animated {
    [super viewWillAppear:animated];
    if (self.antsView.marchLink == nil) {
        self.antsView.marchLink = [CADisplayLink displayLinkWithTarget:self.antsView selector:@selector(march)];
        [self.antsView.marchLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSDefaultRunLoopMode];
    }
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    [self.antsView.marchLink invalidate];
    self.antsView.marchLink = nil;
}

@end
