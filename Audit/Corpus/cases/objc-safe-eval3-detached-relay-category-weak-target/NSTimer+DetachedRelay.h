#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

@interface DetachedTickRelay : NSObject
@property (nonatomic, weak) id relayTarget;
@property (nonatomic) SEL relaySelector;
@end

@interface NSTimer (DetachedRelay)
+ (NSTimer *)scheduledDetachedTimerWithTimeInterval:(NSTimeInterval)seconds target:(id)target selector:(SEL)sel userinfo:(nullable id)userInfo repeats:(BOOL)repeats;
@end

NS_ASSUME_NONNULL_END
