#import "ChatThreadController.h"
#import "ChatLink.h"

@implementation ChatThreadController {
    ChatLink *_roomLink;
}

- (void)viewDidLoad {
    [super viewDidLoad];
    _roomLink = [[ChatLink alloc] init];
    [_roomLink openChatLink];
}

@end
