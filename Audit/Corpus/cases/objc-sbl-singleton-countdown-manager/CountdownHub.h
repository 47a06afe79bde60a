#import <Foundation/Foundation.h>

#define kCountdownHub [CountdownHub sharedHub]
extern NSString * const CountdownHubTickNotification;

@interface CountdownHub : NSObject
@property (nonatomic, assign, readonly) NSInteger elapsed;
+ (instancetype)sharedHub;
- (void)start;
- (void)reload;
@end
