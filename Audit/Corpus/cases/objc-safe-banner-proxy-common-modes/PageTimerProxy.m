#import "PageTimerProxy.h"

@implementation PageTimerProxy

+ (PageTimerProxy *)proxyWithTarget:(id)target {
    PageTimerProxy *proxy = [PageTimerProxy alloc];
    proxy.target = target;
    return proxy;
}

- (NSMethodSignature *)methodSignatureForSelector:(SEL)sel {
    return [self.target methodSignatureForSelector:sel];
}

- (void)forwardInvocation:(NSInvocation *)invocation {
    [invocation invokeWithTarget:self.target];
}

@end
