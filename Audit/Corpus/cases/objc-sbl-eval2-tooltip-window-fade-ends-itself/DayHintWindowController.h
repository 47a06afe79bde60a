#import <Cocoa/Cocoa.h>

@interface DayHintWindowController : NSWindowController
- (void)fadeHint;
- (void)finishHint;
@end
