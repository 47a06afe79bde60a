#import "RenderSurfaceView.h"
#include <memory>

@implementation RenderSurfaceView
{
    CADisplayLink *_frameLink;
    std::unique_ptr<FrameRenderer> _renderer;
}

+ (Class)layerClass
{
    return [CAMetalLayer class];
}

- (void)didMoveToWindow
{
    [super didMoveToWindow];
    if (self.window == nil)
    {
        [_frameLink invalidate];
        _frameLink = nil;
        return;
    }
    [self attachLinkToScreen:self.window.screen];
    [_frameLink addToRunLoop:[NSRunLoop currentRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)attachLinkToScreen:(UIScreen *)screen
{
    [_frameLink invalidate];
    _frameLink = [screen displayLinkWithTarget:self selector:@selector(renderFrame)];
    _frameLink.preferredFramesPerSecond = 60;
}

- (void)renderFrame
{
    if (_renderer) {
        _renderer->draw();
    }
}

@end
