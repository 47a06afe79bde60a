#import <Cocoa/Cocoa.h>

@interface HUDPreviewView : NSView
- (void)beginPreview;
- (void)teardown;
@end
