#import "HUDPreviewView.h"

@interface HUDSettingsWindowController : NSWindowController
@property (nonatomic, weak) IBOutlet HUDPreviewView *preview;
@end

@implementation HUDSettingsWindowController

- (void)windowDidLoad {
    [super windowDidLoad];
    [[NSNotificationCenter defaultCenter] addObserver:self selector:@selector(settingsWindowWillClose:) name:NSWindowWillCloseNotification object:self.window];
    [self.preview beginPreview];
}

- (void)settingsWindowWillClose:(NSNotification *)note {
    [[NSNotificationCenter defaultCenter] removeObserver:self name:NSWindowWillCloseNotification object:self.window];
    [self.preview teardown];
}

@end
