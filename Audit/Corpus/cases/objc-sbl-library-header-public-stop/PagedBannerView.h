#import <UIKit/UIKit.h>

NS_ASSUME_NONNULL_BEGIN

@interface PagedBannerView : UIView
@property (nonatomic, strong) UIScrollView *bannerScroll;
@property (nullable, nonatomic, strong) NSTimer *bannerTimer;
- (instancetype)initWithFrame:(CGRect)frame bannerImages:(NSArray *)images;
- (void)addBannerTimer;
- (void)invalidateBannerTimer;
@end

NS_ASSUME_NONNULL_END
