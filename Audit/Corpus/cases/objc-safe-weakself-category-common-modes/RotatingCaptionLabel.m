#import "RotatingCaptionLabel.h"
#import "NSTimer+NoCycle.h"

@implementation RotatingCaptionLabel {
    NSTimer *_rotation;
    NSUInteger _index;
}

- (void)startRotatingCaptions {
    __weak __typeof(self) weakSelf = self;
    _rotation = [NSTimer nc_timerWithTimeInterval:3 repeats:YES block:^(NSTimer *timer) {
        __strong __typeof(weakSelf) strongSelf = weakSelf;
        [strongSelf showNextCaption];
    }];
    [[NSRunLoop currentRunLoop] addTimer:_rotation forMode:NSRunLoopCommonModes];
}

- (void)showNextCaption {
    _index = (_index + 1) % self.captions.count;
    self.text = self.captions[_index];
}

- (void)dealloc {
    [_rotation invalidate];
}

@end
