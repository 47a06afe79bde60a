#import <UIKit/UIKit.h>

@interface ParkingMeterController : UIViewController
- (void)startMeter;
- (void)stopMeter;
@end
