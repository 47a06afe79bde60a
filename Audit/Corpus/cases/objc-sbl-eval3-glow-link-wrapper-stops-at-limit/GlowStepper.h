#import <UIKit/UIKit.h>

@interface GlowStepper : NSObject
@property (nonatomic, copy) void (^glowStepHandler)(NSUInteger step);
- (void)resumeGlowSteps;
@end
