#import <UIKit/UIKit.h>

@interface FrameRelay : NSProxy
@property (nonatomic, weak) id owner;
+ (instancetype)relayTo:(id)owner;
@end

@implementation FrameRelay
+ (instancetype)relayTo:(id)owner {
    FrameRelay *relay = [FrameRelay alloc];
    relay.owner = owner;
    return relay;
}
- (id)forwardingTargetForSelector:(SEL)selector {
    return self.owner;
}
- (NSMethodSignature *)methodSignatureForSelector:(SEL)selector {
    return [NSObject instanceMethodSignatureForSelector:@selector(init)];
}
- (void)forwardInvocation:(NSInvocation *)invocation {
}
@end

@interface FPSBadge : UILabel
@end

@implementation FPSBadge {
    CADisplayLink *_counterLink;
    NSUInteger _frames;
    CFTimeInterval _windowStart;
}

- (instancetype)initWithFrame:(CGRect)frame {
    if ((self = [super initWithFrame:frame])) {
        _counterLink = [CADisplayLink displayLinkWithTarget:[FrameRelay relayTo:self] selector:@selector(countFrame:)];
        [_counterLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
    }
    return self;
}

- (void)countFrame:(CADisplayLink *)link {
    if (_windowStart == 0) {
        _windowStart = link.timestamp;
    }
    _frames += 1;
    CFTimeInterval elapsed = link.timestamp - _windowStart;
    if (elapsed >= 1) {
        self.text = [NSString stringWithFormat:@"%d FPS", (int)round(_frames / elapsed)];
        _frames = 0;
        _windowStart = link.timestamp;
    }
}

- (void)dealloc {
    [_counterLink invalidate];
}

@end
