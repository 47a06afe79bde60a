#import <Foundation/Foundation.h>

@interface NSTimer (BlockRelay)
+ (NSTimer *)relay_scheduleTimerWithTimeInterval:(NSTimeInterval)interval block:(void (^)(void))block repeats:(BOOL)repeats;
@end
