#import <Foundation/Foundation.h>

@protocol UpdateCheckTimerDelegate <NSObject>
- (void)updateCheckTimerFired;
@end

@interface UpdateCheckTimer : NSObject
- (instancetype)initWithDelegate:(id<UpdateCheckTimerDelegate>)delegate;
- (void)fireAfterDelay:(NSTimeInterval)delay;
- (void)invalidate;
@end
