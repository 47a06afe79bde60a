#import "WeakForwarder.h"

@implementation WeakForwarder {
    __weak id _object;
}

+ (instancetype)forwarderTo:(id)object {
    WeakForwarder *forwarder = [self alloc];
    forwarder->_object = object;
    return forwarder;
}

- (BOOL)respondsToSelector:(SEL)selector {
    return [_object respondsToSelector:selector];
}

- (NSMethodSignature *)methodSignatureForSelector:(SEL)selector {
    return [_object methodSignatureForSelector:selector] ?: [NSObject instanceMethodSignatureForSelector:@selector(self)];
}

- (void)forwardInvocation:(NSInvocation *)invocation {
    if (_object) {
        [invocation invokeWithTarget:_object];
    }
}

@end
