#import <UIKit/UIKit.h>

@interface UILabel (OfferCountdown)
- (void)offerCountdown:(NSInteger)seconds;
@end
