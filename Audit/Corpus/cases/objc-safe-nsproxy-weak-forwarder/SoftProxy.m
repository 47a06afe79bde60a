#import "SoftProxy.h"

@implementation SoftProxy

+ (instancetype)proxyFor:(id)target {
    SoftProxy *proxy = [SoftProxy alloc];
    proxy->_target = target;
    return proxy;
}

- (id)forwardingTargetForSelector:(SEL)selector {
    return _target;
}

- (NSMethodSignature *)methodSignatureForSelector:(SEL)selector {
    return [NSObject instanceMethodSignatureForSelector:@selector(init)];
}

- (void)forwardInvocation:(NSInvocation *)invocation {
    void *nothing = NULL;
    [invocation setReturnValue:&nothing];
}

@end
