#import "RowGridLoader.h"

@implementation RowGridLoader

- (id)init
{
	if ((self = [super init])) {
		rowLoadTimer = nil;
		[[NSNotificationCenter defaultCenter] addObserver:self selector:@selector(sheetWillClose:) name:@"SheetWillCloseNotification" object:nil];
	}
	return self;
}

- (void)fetchRowsInBackground
{
	[self performSelectorOnMainThread:@selector(startRowLoadTimer) withObject:nil waitUntilDone:YES];
	[rowBuffer waitUntilComplete];
}

- (void)startRowLoadTimer
{
	if (rowLoadTimer) [self stopRowLoadTimer];
	rowLoadTicks = 0;
	rowLoadTimer = [[NSTimer scheduledTimerWithTimeInterval:0.02 target:self selector:@selector(rowLoadTick:) userInfo:nil repeats:YES] retain];
}

- (void)stopRowLoadTimer
{
	if (rowLoadTimer) {
		[rowLoadTimer invalidate];
		[rowLoadTimer release], rowLoadTimer = nil;
	}
}

- (void)rowLoadTick:(NSTimer *)theTimer
{
	rowLoadTicks++;
	if ([rowBuffer isComplete]) {
		[self stopRowLoadTimer];
	}
	[gridView reloadData];
}

- (void)sheetWillClose:(NSNotification *)notification
{
	[self stopRowLoadTimer];
}

- (void)dealloc
{
	[[NSNotificationCenter defaultCenter] removeObserver:self];
	[self stopRowLoadTimer];
	[super dealloc];
}

@end
