#import <Foundation/Foundation.h>

@interface NSTimer (Callbacks)
+ (NSTimer *)cb_every:(NSTimeInterval)interval repeats:(BOOL)repeats run:(void (^)(void))block;
@end
