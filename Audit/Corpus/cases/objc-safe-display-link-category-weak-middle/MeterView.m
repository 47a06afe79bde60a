#import "CADisplayLink+WeakRelay.h"

@interface MeterView : UIView
@property (nonatomic, strong) CADisplayLink *refreshLink;
@end

@implementation MeterView

- (instancetype)initWithFrame:(CGRect)frame {
    if ((self = [super initWithFrame:frame])) {
        _refreshLink = [CADisplayLink wr_linkWithTarget:self selector:@selector(refresh:)];
        [_refreshLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
    }
    return self;
}

- (void)refresh:(CADisplayLink *)link {
    [self setNeedsDisplay];
}

- (void)dealloc {
    [_refreshLink invalidate];
}

@end
