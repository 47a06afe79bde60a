#import "FrameDisplayLink.h"

@interface AnimatedStickerView : UIImageView
@property (nonatomic, strong) FrameDisplayLink *frameLink;
@property (nonatomic, assign) NSUInteger frameIndex;
@end

@implementation AnimatedStickerView

- (void)startAnimatingSticker {
    if (!self.frameLink) {
        self.frameLink = [FrameDisplayLink displayLinkWithTarget:self selector:@selector(showNextFrame:)];
        [self.frameLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
    }
    [self.frameLink start];
}

- (void)showNextFrame:(FrameDisplayLink *)link {
    self.frameIndex += 1;
    [self.layer setNeedsDisplay];
}

@end
