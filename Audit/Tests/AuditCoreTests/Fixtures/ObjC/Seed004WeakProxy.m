// Seed 004, the fix: an NSProxy that holds its target weakly and forwards to it (without crashing once
// the target is gone), used as the timer's target; dealloc can run, so invalidating there is right.
// expect-none
@interface ORCWeakProxy : NSProxy
@property (nonatomic, readonly, weak) id target;
@property (nonatomic, weak) id timer;
- (instancetype)initWithTarget:(id)target;
+ (instancetype)proxyWithTarget:(id)target;
@end

@implementation ORCWeakProxy
- (instancetype)initWithTarget:(id)target {
    _target = target;
    return self;
}

+ (instancetype)proxyWithTarget:(id)target {
    return [[self.class alloc] initWithTarget:target];
}

- (BOOL)respondsToSelector:(SEL)aSelector {
    return [self.target respondsToSelector:aSelector];
}

- (id)forwardingTargetForSelector:(SEL)selector {
    if (self.target == nil) {
        [self.timer invalidate];
    }
    return self.target;
}

- (void)forwardInvocation:(NSInvocation *)invocation {
    void *null = NULL;
    [invocation setReturnValue:&null];
}

- (NSMethodSignature *)methodSignatureForSelector:(SEL)sel {
    return [NSObject instanceMethodSignatureForSelector:@selector(init)];
}
@end

@interface ClockViewController ()
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation ClockViewController
- (void)startWithInterval:(NSTimeInterval)ti target:(id)aTarget selector:(SEL)aSelector {
    ORCWeakProxy *proxy = [ORCWeakProxy proxyWithTarget:aTarget];
    self.timer = [NSTimer scheduledTimerWithTimeInterval:ti
                                                  target:proxy
                                                selector:aSelector
                                                userInfo:nil
                                                 repeats:YES];
}

- (void)startTicking {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:1.0 target:[ORCWeakProxy proxyWithTarget:self] selector:@selector(tick) userInfo:nil repeats:YES];
}

- (void)dealloc {
    [self.timer invalidate];
}
@end
