// A timer firing an NSInvocation whose target is self retains self through the invocation.
#import <Foundation/Foundation.h>

@implementation Autosaver

- (void)start {
    NSMethodSignature *sig = [self methodSignatureForSelector:@selector(save)];
    NSInvocation *inv = [NSInvocation invocationWithMethodSignature:sig];
    inv.target = self;
    inv.selector = @selector(save);
    _timer = [NSTimer scheduledTimerWithTimeInterval:10 invocation:inv repeats:YES];  // expect: timer-target-retain
}

- (void)save {}

@end

@implementation ProxiedAutosaver
- (void)start {
    NSInvocation *inv = [NSInvocation invocationWithMethodSignature:[self methodSignatureForSelector:@selector(save)]];
    [inv setTarget:self];
    inv.selector = @selector(save);
    [NSTimer scheduledTimerWithTimeInterval:10 invocation:inv repeats:YES];  // expect: timer-target-retain
    NSInvocation *weakInv = [NSInvocation invocationWithMethodSignature:[self methodSignatureForSelector:@selector(save)]];
    weakInv.target = [WeakProxyForDemo proxyWithTarget:self];
    [NSTimer scheduledTimerWithTimeInterval:10 invocation:weakInv repeats:YES];
    [NSTimer scheduledTimerWithTimeInterval:10 invocation:inv repeats:NO];
}
- (void)save {}
@end
