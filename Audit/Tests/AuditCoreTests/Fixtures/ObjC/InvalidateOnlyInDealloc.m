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

@interface TickerView : UIView
@property (nonatomic, weak) NSTimer *timer;
@end

@implementation TickerView {
    NSTimer *_strongTimer;
}

- (void)startWeak {
    NSTimer *timer = [NSTimer timerWithTimeInterval:1 target:self selector:@selector(tick) userInfo:nil repeats:YES]; // expect: weak-timer-property-no-fix
    [[NSRunLoop mainRunLoop] addTimer:timer forMode:NSRunLoopCommonModes];
    self.timer = timer;
}

- (void)startStrong {
    NSTimer *timer = [NSTimer timerWithTimeInterval:1 target:self selector:@selector(tick) userInfo:nil repeats:YES]; // expect: timer-target-retain
    [[NSRunLoop mainRunLoop] addTimer:timer forMode:NSRunLoopCommonModes];
    _strongTimer = timer;
}

- (void)tick {
}

- (void)dealloc {
    [_strongTimer invalidate]; // expect: invalidate-only-in-deinit
}

@end
