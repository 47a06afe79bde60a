// The wrapper's properties are declared in its header: `timer` is strong, `weakTimer` is weak.
#import <Foundation/Foundation.h>

@interface Relay : NSObject
@property (nonatomic, strong) NSTimer *timer;
@property (nonatomic, weak) NSTimer *weakTimer;
+ (Relay *)relayEvery:(NSTimeInterval)interval;
@end
