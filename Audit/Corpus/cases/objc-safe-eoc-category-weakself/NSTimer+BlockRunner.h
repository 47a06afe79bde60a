#import <Foundation/Foundation.h>

@interface NSTimer (BlockRunner)
+ (NSTimer *)br_scheduledTimerWithTimeInterval:(NSTimeInterval)interval repeats:(BOOL)repeats block:(void (^)(NSTimer *timer))block;
@end
