#import "ReaderAppDelegate.h"
#import "ArticlePump.h"

@implementation ReaderAppDelegate

- (void)applicationWillTerminate:(UIApplication *)application {
    [articlePump endPumping];
}

@end
