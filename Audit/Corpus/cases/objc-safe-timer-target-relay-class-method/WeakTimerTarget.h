#import <Foundation/Foundation.h>

@interface WeakTimerTarget : NSObject
@property (nonatomic, weak) id receiver;
@property (nonatomic, assign) SEL action;
@property (nonatomic, weak) NSTimer *timer;
+ (NSTimer *)timerEvery:(NSTimeInterval)interval target:(id)target selector:(SEL)selector repeats:(BOOL)repeats;
@end
