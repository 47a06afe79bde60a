#import <UIKit/UIKit.h>

@interface MarchingAntsView : UIView
@property (nonatomic, strong) CADisplayLink *marchLink;
- (void)march;
@end
