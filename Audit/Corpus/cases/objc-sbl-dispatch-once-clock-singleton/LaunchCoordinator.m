#import "LaunchCoordinator.h"
#import "ServerClockSync.h"

@implementation LaunchCoordinator

- (void)finishLaunching {
    [[ServerClockSync sharedClockSync] beginClockSync];
}

@end
