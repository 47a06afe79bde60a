#import <UIKit/UIKit.h>

@interface PosterWheelView : UIView
@property (nonatomic, assign) NSTimeInterval wheelInterval;
@property (nonatomic, assign) BOOL wheelNeeded;
@end
