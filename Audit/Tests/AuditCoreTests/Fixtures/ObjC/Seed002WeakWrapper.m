// Seed 002, the fix: a wrapper that forwards to a weakly held object, used as the timer's target.
// expect-none
#import <Foundation/Foundation.h>
#import <objc/runtime.h>

@interface WeakWrapper : NSObject
- (instancetype)initWith:(id)willWeak;
@end

@interface WeakWrapper()
@property (nonatomic, weak) id weakObj;
@end

@implementation WeakWrapper
- (instancetype)initWith:(id)willWeak {
    if ([super init]) {
        self.weakObj = willWeak;
    }
    return self;
}

- (instancetype)init {
    [self doesNotRecognizeSelector:_cmd];
    return nil;
}

- (id)forwardingTargetForSelector:(SEL)aSelector {
    return _weakObj;
}
@end

@implementation PollingViewController {
    NSTimer *_timer1;
}

- (void)start {
    WeakWrapper *wapper = [[WeakWrapper alloc] initWith:self];
    _timer1 = [NSTimer timerWithTimeInterval:3 target: wapper selector:@selector(doTimer) userInfo:nil repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:_timer1 forMode:NSRunLoopCommonModes];
}

- (void)dealloc {
    [_timer1 invalidate];
}

@end
