#import <UIKit/UIKit.h>

@interface BusyOverlayView : UIView
@property (nonatomic, assign) NSTimeInterval graceDelay;
@property (nonatomic, strong) NSProgress *trackedProgress;
@property (nonatomic, assign) double shownFraction;
- (void)presentOverlay:(BOOL)animated;
- (void)dismissOverlay:(BOOL)animated;
@end
