#import <Foundation/Foundation.h>

@interface NSTimer (SoftTarget)
+ (NSTimer *)st_scheduledTimerWithTimeInterval:(NSTimeInterval)interval
                                    weakTarget:(id)target
                                      selector:(SEL)selector
                                      userInfo:(id)userInfo
                                       repeats:(BOOL)repeats;
@end
