// The timer properties are declared here, one weak: a weak property does not break the cycle (seed 003).
#import <UIKit/UIKit.h>

@interface StatusBar : UIView
@property (nonatomic, weak) NSTimer *timer;
@property (nonatomic, weak) NSTimer *blockTimer;
@property (nonatomic, strong) NSTimer *strongTimer;
@end
