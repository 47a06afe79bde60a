#import "StatusToastHUD.h"

@interface StatusToastHUD ()
@property (nonatomic, strong) NSTimer *graceShowTimer;
@property (nonatomic, strong) NSTimer *fadeAwayTimer;
@end

@implementation StatusToastHUD

+ (StatusToastHUD *)sharedToast {
    static dispatch_once_t once;
    static StatusToastHUD *sharedToast;
    dispatch_once(&once, ^{ sharedToast = [[self alloc] initWithFrame:[[UIScreen mainScreen] bounds]]; });
    return sharedToast;
}

- (void)setGraceShowTimer:(NSTimer *)timer {
    if (_graceShowTimer) {
        [_graceShowTimer invalidate];
        _graceShowTimer = nil;
    }
    if (timer) {
        _graceShowTimer = timer;
    }
}

- (void)setFadeAwayTimer:(NSTimer *)timer {
    if (_fadeAwayTimer) {
        [_fadeAwayTimer invalidate];
        _fadeAwayTimer = nil;
    }
    if (timer) {
        _fadeAwayTimer = timer;
    }
}

- (void)showStatus:(NSString *)status {
    __weak StatusToastHUD *weakSelf = self;
    [[NSOperationQueue mainQueue] addOperationWithBlock:^{
        __strong StatusToastHUD *strongSelf = weakSelf;
        if (strongSelf) {
            strongSelf.graceShowTimer = [NSTimer timerWithTimeInterval:strongSelf.graceInterval target:strongSelf selector:@selector(fadeToastIn:) userInfo:nil repeats:NO];
            [[NSRunLoop mainRunLoop] addTimer:strongSelf.graceShowTimer forMode:NSRunLoopCommonModes];
        }
    }];
}

- (void)fadeToastIn:(id)data {
    self.alpha = 1.0f;
    self.fadeAwayTimer = [NSTimer timerWithTimeInterval:2.0 target:self selector:@selector(dismissToast) userInfo:nil repeats:NO];
    [[NSRunLoop mainRunLoop] addTimer:self.fadeAwayTimer forMode:NSRunLoopCommonModes];
}

- (void)dismissToast {
    self.alpha = 0.0f;
}

@end
