#import "HUDPreviewView.h"

@implementation HUDPreviewView {
    NSTimer *_blinkTimer;
    BOOL _lit;
}

- (void)beginPreview {
    _blinkTimer = [NSTimer scheduledTimerWithTimeInterval:1 repeats:YES block:^(NSTimer *timer) {
        self->_lit = !self->_lit;
        [self setNeedsDisplay:YES];
    }];
    [[NSRunLoop currentRunLoop] addTimer:_blinkTimer forMode:NSEventTrackingRunLoopMode];
}

- (void)teardown {
    [_blinkTimer invalidate];
    _blinkTimer = nil;
}

@end
