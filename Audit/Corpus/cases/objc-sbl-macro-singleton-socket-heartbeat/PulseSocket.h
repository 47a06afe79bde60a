#import <Foundation/Foundation.h>

#define PULSE_SHARED_INSTANCE(block) \
static dispatch_once_t pulseOnce = 0; \
__strong static id pulseShared = nil; \
dispatch_once(&pulseOnce, ^{ \
    pulseShared = block(); \
}); \
return pulseShared;

@interface PulseSocket : NSObject
@property (nonatomic, strong) NSTimer *pulseTimer;
+ (PulseSocket *)sharedSocket;
- (void)connectPulse;
@end
