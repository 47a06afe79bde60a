#import <QuartzCore/QuartzCore.h>

@interface CADisplayLink (WeakRelay)
+ (CADisplayLink *)wr_linkWithTarget:(id)target selector:(SEL)selector;
@end
