// Seed 004: a category that swaps NSTimer's factory methods so that every timer gets the weak proxy.
// expect-none
@interface NSTimer (NoRetainCycleWithProxy)
@end

@implementation NSTimer (NoRetainCycleWithProxy)
+ (void)load {
    static dispatch_once_t onceToken;
    dispatch_once(&onceToken, ^{
        [self orc_exchangeSelector:@selector(scheduledTimerWithTimeInterval:target:selector:userInfo:repeats:)
                        toSelector:@selector(orc_scheduledTimerWithTimeInterval:target:selector:userInfo:repeats:)];
        [self orc_exchangeSelector:@selector(timerWithTimeInterval:target:selector:userInfo:repeats:)
                        toSelector:@selector(orc_timerWithTimeInterval:target:selector:userInfo:repeats:)];
    });
}

+ (NSTimer *)orc_timerWithTimeInterval:(NSTimeInterval)ti target:(id)aTarget selector:(SEL)aSelector userInfo:(nullable id)userInfo repeats:(BOOL)yesOrNo {
    return [self orc_timerWithTimeInterval:ti
                                    target:[ORCWeakProxy proxyWithTarget:aTarget]
                                  selector:aSelector
                                  userInfo:userInfo
                                   repeats:yesOrNo];
}

+ (NSTimer *)orc_scheduledTimerWithTimeInterval:(NSTimeInterval)ti target:(id)aTarget selector:(SEL)aSelector userInfo:(nullable id)userInfo repeats:(BOOL)yesOrNo {
    return [self orc_scheduledTimerWithTimeInterval:ti
                                             target:[ORCWeakProxy proxyWithTarget:aTarget]
                                           selector:aSelector
                                           userInfo:userInfo
                                            repeats:yesOrNo];
}
@end
