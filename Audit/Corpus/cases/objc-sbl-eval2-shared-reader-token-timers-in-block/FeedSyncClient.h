#import <Foundation/Foundation.h>

@interface FeedSyncClient : NSObject
@property (nonatomic, strong) NSURL *loginURL;
@property (nonatomic, strong) NSURL *tokenURL;
+ (FeedSyncClient *)sharedManager;
- (void)requestLogin;
@end
