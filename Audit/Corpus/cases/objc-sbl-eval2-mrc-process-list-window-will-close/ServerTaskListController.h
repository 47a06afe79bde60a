#import <Cocoa/Cocoa.h>

@interface ServerTaskListController : NSWindowController <NSWindowDelegate>
{
	NSTimer *taskRefreshTimer;
}
- (IBAction)reloadTaskList:(id)sender;
@end
