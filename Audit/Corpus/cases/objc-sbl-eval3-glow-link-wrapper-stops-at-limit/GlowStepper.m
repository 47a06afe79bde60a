#import "GlowStepper.h"

@interface GlowStepper ()
@property (nonatomic, strong) CADisplayLink *glowLink;
@property (nonatomic, assign) NSUInteger glowStep;
@end

@implementation GlowStepper

- (instancetype)init {
    self = [super init];
    if (self) {
        self.glowLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(glowLinkFired:)];
        [self.glowLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
    }
    return self;
}

- (void)glowLinkFired:(CADisplayLink *)link {
    if (self.glowStep == 255) {
        [self.glowLink invalidate];
    }
    self.glowStep++;
    if (self.glowStepHandler) {
        self.glowStepHandler(self.glowStep);
    }
}

- (void)resumeGlowSteps {
    [self.glowLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
}

@end
