#import <Foundation/Foundation.h>

@interface NSTimer (Repeat)
+ (instancetype)rp_every:(NSTimeInterval)interval do:(void (^)(NSTimer *timer))block;
@end

@implementation NSTimer (Repeat)

+ (instancetype)rp_every:(NSTimeInterval)interval do:(void (^)(NSTimer *timer))block {
    return [NSTimer scheduledTimerWithTimeInterval:interval target:self selector:@selector(rp_run:) userInfo:[block copy] repeats:YES];
}

+ (void)rp_run:(NSTimer *)timer {
    void (^block)(NSTimer *) = timer.userInfo;
    if (block) {
        block(timer);
    }
}

@end
