#import <UIKit/UIKit.h>

@interface StatusToastHUD : UIView
@property (nonatomic, assign) NSTimeInterval graceInterval;
+ (StatusToastHUD *)sharedToast;
- (void)showStatus:(NSString *)status;
@end
