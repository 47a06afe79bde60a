#import <Cocoa/Cocoa.h>

@interface HintPanel : NSWindow
{
	NSTimer *hintFadeTimer;
	NSDate *hintFadeStart;
}
@end
