#import <Foundation/Foundation.h>

@interface JobDispatcher : NSObject
@property (nonatomic, readonly, getter=isRunning) BOOL running;
- (void)enqueue:(id)job;
- (void)start;
@end
