#import <Foundation/Foundation.h>

@interface WeakForwarder : NSProxy
+ (instancetype)forwarderTo:(id)object;
@end
