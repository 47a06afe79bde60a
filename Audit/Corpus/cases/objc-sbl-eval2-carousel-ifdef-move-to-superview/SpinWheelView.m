#import "SpinWheelView.h"

@interface SpinWheelView ()
@property (nonatomic, strong) NSTimer *spinTimer;
@property (nonatomic, assign) BOOL coasting;
@end

@implementation SpinWheelView

- (void)dealloc
{
    [self haltSpin];
}

- (void)setDrift:(CGFloat)drift
{
    _drift = drift;
    if (drift != 0.0) [self beginSpin];
}

- (void)beginSpin
{
    if (!_spinTimer)
    {
        self.spinTimer = [NSTimer timerWithTimeInterval:1.0/60.0
                                                 target:self
                                               selector:@selector(spinStep)
                                               userInfo:nil
                                                repeats:YES];

        [[NSRunLoop mainRunLoop] addTimer:_spinTimer forMode:NSDefaultRunLoopMode];

#ifdef SPINWHEEL_IOS

        [[NSRunLoop mainRunLoop] addTimer:_spinTimer forMode:UITrackingRunLoopMode];

#endif

    }
}

- (void)haltSpin
{
    [_spinTimer invalidate];
    _spinTimer = nil;
}

- (void)spinStep
{
    if (self.coasting)
    {
        [self setNeedsLayout];
    }
    else if (!_drift)
    {
        [self haltSpin];
    }
}

#ifdef SPINWHEEL_IOS

- (void)didMoveToSuperview

#else

- (void)viewDidMoveToSuperview

#endif

{
    if (self.superview)
    {
        [self beginSpin];
    }
    else
    {
        [self haltSpin];
    }
}

@end
