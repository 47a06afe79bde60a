#import <UIKit/UIKit.h>

@interface OfferBannerStripView : UIView
@property (nonatomic, assign) CGFloat advanceDelay;
@property (nonatomic, assign) NSInteger shownPromoIndex;
@end
