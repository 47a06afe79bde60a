#import <Cocoa/Cocoa.h>

@interface MenuClockController : NSViewController
@property (nonatomic, copy) NSString *statusTitle;
@end
