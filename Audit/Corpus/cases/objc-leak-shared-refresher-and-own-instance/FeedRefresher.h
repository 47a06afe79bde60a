#import <Foundation/Foundation.h>

@interface FeedRefresher : NSObject
+ (instancetype)sharedRefresher;
- (void)startRefreshingFeed;
- (void)stopRefreshingFeed;
@end
