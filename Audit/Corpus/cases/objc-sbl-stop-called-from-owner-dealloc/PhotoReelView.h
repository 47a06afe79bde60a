#import <UIKit/UIKit.h>

@interface PhotoReelView : UIView
@property (nonatomic, strong) NSTimer *reelTimer;
- (void)startReel:(NSTimeInterval)interval;
- (void)stopReel;
@end
