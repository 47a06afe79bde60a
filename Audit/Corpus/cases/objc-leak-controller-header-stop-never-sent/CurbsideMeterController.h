#import <UIKit/UIKit.h>

@interface CurbsideMeterController : UIViewController
- (void)startCurbMeter;
- (void)stopCurbMeter;
@end
