#import "FrameDisplayLink.h"
#import <QuartzCore/QuartzCore.h>

@interface FDLWeakBox : NSProxy
@property (nonatomic, weak) id inner;
@end

@implementation FDLWeakBox
- (NSMethodSignature *)methodSignatureForSelector:(SEL)sel {
    return [self.inner methodSignatureForSelector:sel] ?: [NSObject instanceMethodSignatureForSelector:@selector(init)];
}
- (void)forwardInvocation:(NSInvocation *)invocation {
    if (self.inner) {
        [invocation invokeWithTarget:self.inner];
    }
}
@end

@implementation FrameDisplayLink {
    CADisplayLink *_link;
}

+ (instancetype)displayLinkWithTarget:(id)target selector:(SEL)selector {
    FrameDisplayLink *wrapper = [[self alloc] init];
    wrapper->_target = target;
    wrapper->_selector = selector;
    FDLWeakBox *box = [FDLWeakBox alloc];
    box.inner = wrapper;
    wrapper->_link = [CADisplayLink displayLinkWithTarget:box selector:@selector(refresh:)];
    wrapper->_link.paused = YES;
    return wrapper;
}

- (void)addToRunLoop:(NSRunLoop *)runLoop forMode:(NSRunLoopMode)mode {
    [_link addToRunLoop:runLoop forMode:mode];
}

- (void)start {
    _link.paused = NO;
}

- (void)stop {
    _link.paused = YES;
}

- (void)refresh:(CADisplayLink *)link {
    id target = self.target;
    if (target) {
        ((void (*)(id, SEL, id))[target methodForSelector:self.selector])(target, self.selector, self);
    }
}

- (void)dealloc {
    [_link invalidate];
}

@end
