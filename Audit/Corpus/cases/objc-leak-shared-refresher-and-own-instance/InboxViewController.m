#import "InboxViewController.h"
#import "FeedRefresher.h"

@implementation InboxViewController {
    FeedRefresher *_inboxRefresher;
}

- (void)viewDidLoad {
    [super viewDidLoad];
    _inboxRefresher = [[FeedRefresher alloc] init];
    [_inboxRefresher startRefreshingFeed];
}

@end
