#import "ServerTaskListController.h"

@interface ServerTaskListController ()
- (void)_startTaskRefreshTimer;
- (void)_killTaskRefreshTimer;
- (void)_taskRefreshFired:(NSTimer *)timer;
@end

@implementation ServerTaskListController

- (void)showWindow:(id)sender
{
	if ([[NSUserDefaults standardUserDefaults] boolForKey:@"TaskListAutoRefresh"]) {
		[self _startTaskRefreshTimer];
	}
	[super showWindow:sender];
}

- (IBAction)toggleTaskAutoRefresh:(NSButton *)sender
{
	BOOL enable = [sender state];
	(enable) ? [self _startTaskRefreshTimer] : [self _killTaskRefreshTimer];
}

- (void)windowWillClose:(NSNotification *)notification
{
	[self _killTaskRefreshTimer];
}

- (void)_startTaskRefreshTimer
{
	taskRefreshTimer = [[NSTimer scheduledTimerWithTimeInterval:[[NSUserDefaults standardUserDefaults] doubleForKey:@"TaskListInterval"] target:self selector:@selector(_taskRefreshFired:) userInfo:nil repeats:YES] retain];
}

- (void)_killTaskRefreshTimer
{
	if (taskRefreshTimer && [taskRefreshTimer isValid]) {
		[taskRefreshTimer invalidate];
		[taskRefreshTimer release], taskRefreshTimer = nil;
	}
}

- (void)_taskRefreshFired:(NSTimer *)timer
{
	[self reloadTaskList:self];
}

- (void)dealloc
{
	if (taskRefreshTimer) [taskRefreshTimer release], taskRefreshTimer = nil;
	[super dealloc];
}

@end
