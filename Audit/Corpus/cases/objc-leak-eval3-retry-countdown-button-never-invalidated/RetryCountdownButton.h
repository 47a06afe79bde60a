#import <UIKit/UIKit.h>

@interface RetryCountdownButton : UIButton

// setting it starts the countdown
@property (nonatomic) NSInteger retrySeconds;

@end
