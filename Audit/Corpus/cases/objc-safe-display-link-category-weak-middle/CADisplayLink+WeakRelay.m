#import "CADisplayLink+WeakRelay.h"

@interface WRRelay : NSObject
@property (nonatomic, weak) id receiver;
@property (nonatomic, assign) SEL action;
@end

@implementation WRRelay

- (void)relay:(CADisplayLink *)link {
    id receiver = self.receiver;
    if (receiver == nil) {
        [link invalidate];
        return;
    }
    ((void (*)(id, SEL, CADisplayLink *))[receiver methodForSelector:self.action])(receiver, self.action, link);
}

@end

@implementation CADisplayLink (WeakRelay)

+ (CADisplayLink *)wr_linkWithTarget:(id)target selector:(SEL)selector {
    WRRelay *relay = [WRRelay new];
    relay.receiver = target;
    relay.action = selector;
    return [CADisplayLink displayLinkWithTarget:relay selector:@selector(relay:)];
}

@end
