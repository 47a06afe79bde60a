// Invalidating only in dealloc: dealloc cannot run while the timer retains self.
@interface BannerView : UIView
@property (nonatomic, strong) NSTimer *rotationTimer;
@end

@implementation BannerView

- (instancetype)initWithFrame:(CGRect)frame {
    if ((self = [super initWithFrame:frame])) {
        _rotationTimer = [NSTimer scheduledTimerWithTimeInterval:4 target:self selector:@selector(rotate) userInfo:nil repeats:YES]; // expect: timer-target-retain
    }
    return self;
}

- (void)rotate {
}

- (void)dealloc {
    [_rotationTimer invalidate]; // expect: invalidate-only-in-deinit
    _rotationTimer = nil;
}

@end
