#import <Cocoa/Cocoa.h>
#import "MenuClockController.h"

@interface MinuteBarAppDelegate : NSObject <NSApplicationDelegate>
@property (nonatomic, strong) NSWindow *clockWindow;
@end

@implementation MinuteBarAppDelegate

- (void)applicationDidFinishLaunching:(NSNotification *)notification
{
    MenuClockController *vc = [MenuClockController new];
    _clockWindow = [[NSWindow alloc] initWithContentRect:NSZeroRect styleMask:NSWindowStyleMaskBorderless backing:NSBackingStoreBuffered defer:NO];
    _clockWindow.contentViewController = vc;
}

@end
