#import "FeedRefresher.h"

@interface FeedRefresher ()
@property (nonatomic, strong) NSTimer *feedTimer;
@end

@implementation FeedRefresher

+ (instancetype)sharedRefresher {
    static FeedRefresher *refresher = nil;
    static dispatch_once_t onceToken;
    dispatch_once(&onceToken, ^{
        refresher = [[FeedRefresher alloc] init];
    });
    return refresher;
}

- (void)startRefreshingFeed {
    self.feedTimer = [NSTimer scheduledTimerWithTimeInterval:60 target:self selector:@selector(pullFeed) userInfo:nil repeats:YES];
}

- (void)stopRefreshingFeed {
    [self.feedTimer invalidate];
    self.feedTimer = nil;
}

- (void)pullFeed {
}

@end
