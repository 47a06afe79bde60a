#import <UIKit/UIKit.h>

@interface FrameRateStrip : UIWindow
@property (nonatomic, assign) double frameRate;
+ (FrameRateStrip *)sharedInstance;
@end
