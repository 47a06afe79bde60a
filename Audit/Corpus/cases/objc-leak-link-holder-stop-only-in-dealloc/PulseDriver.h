#import <QuartzCore/QuartzCore.h>

@interface PulseDriver : NSObject
@property (nonatomic, copy) void (^onPulse)(CFTimeInterval timestamp);
- (void)beginPulsing;
@end
