#import <UIKit/UIKit.h>

@interface SpinWheelView : UIView
@property (nonatomic, assign) CGFloat drift;
@end
