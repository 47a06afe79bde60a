// CADisplayLink: self as the target leaks; a weak proxy does not; the default mode pauses in a scroll view.
@interface ParallaxScrollView : UIScrollView
@property (nonatomic, strong) CADisplayLink *link;
@end

@implementation ParallaxScrollView

- (void)startAnimating {
    self.link = [CADisplayLink displayLinkWithTarget:self selector:@selector(step:)]; // expect: display-link-target-retain
    [self.link addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)startThroughProxy {
    self.link = [CADisplayLink displayLinkWithTarget:[YYWeakProxy proxyWithTarget:self] selector:@selector(step:)];
    [self.link addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSDefaultRunLoopMode]; // expect-note: default-mode-in-scroll-view
}

- (void)step:(CADisplayLink *)link {
}

- (void)dealloc {
    [self.link invalidate]; // expect: invalidate-only-in-deinit
}

@end
