#import <UIKit/UIKit.h>

@interface SparkleView : UIView
@property (nonatomic, strong) CADisplayLink *sparkleLink;
- (void)beginSparkling;
@end
