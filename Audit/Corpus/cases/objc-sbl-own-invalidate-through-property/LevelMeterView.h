#import <UIKit/UIKit.h>

@interface LevelMeterView : UIView
- (void)startMetering;
- (void)invalidate;
@end
