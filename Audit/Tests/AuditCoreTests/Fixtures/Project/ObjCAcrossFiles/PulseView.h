// The interface in a header, the implementation in a .m: one class.
#import <UIKit/UIKit.h>

@interface PulseView : UIView
@property (nonatomic, strong) NSTimer *timer;
- (void)startPulsing;
- (void)stopPulsing;
@end

@interface AppDelegate : UIResponder <UIApplicationDelegate>
@property (nonatomic, strong) NSTimer *syncTimer;
@end
