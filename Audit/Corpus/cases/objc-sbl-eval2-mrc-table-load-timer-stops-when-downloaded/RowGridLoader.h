#import <Cocoa/Cocoa.h>

@interface RowGridLoader : NSObject
{
	NSTimer *rowLoadTimer;
	NSUInteger rowLoadTicks;
	id rowBuffer;
	NSTableView *gridView;
}
- (void)fetchRowsInBackground;
@end
