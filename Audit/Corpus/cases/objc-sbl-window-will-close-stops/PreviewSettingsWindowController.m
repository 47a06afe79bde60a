#import <Cocoa/Cocoa.h>

@interface PreviewSettingsWindowController : NSWindowController <NSWindowDelegate>
@property (nonatomic, strong) NSTimer *previewTimer;
@end

@implementation PreviewSettingsWindowController

- (void)windowDidLoad {
    [super windowDidLoad];
    self.window.delegate = self;
    if (self.previewTimer == nil) {
        self.previewTimer = [NSTimer timerWithTimeInterval:1.2 target:self selector:@selector(pulsePreview:) userInfo:nil repeats:YES];
        [[NSRunLoop currentRunLoop] addTimer:self.previewTimer forMode:NSEventTrackingRunLoopMode];
        [[NSRunLoop currentRunLoop] addTimer:self.previewTimer forMode:NSDefaultRunLoopMode];
    }
}

- (void)windowWillClose:(NSNotification *)notification {
    [self.previewTimer invalidate];
    self.previewTimer = nil;
}

- (void)pulsePreview:(NSTimer *)timer {
    [[NSNotificationCenter defaultCenter] postNotificationName:@"PreviewHUDShouldShow" object:self];
}

@end
