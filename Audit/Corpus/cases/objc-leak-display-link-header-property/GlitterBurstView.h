#import <UIKit/UIKit.h>

@interface GlitterBurstView : UIView
@property (nonatomic, strong) CADisplayLink *sparkleLink;
- (void)beginSparkling;
@end
