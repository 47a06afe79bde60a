#import "RelayTimer.h"

@interface InboxPoller : NSObject
@property (nonatomic, strong) RelayTimer *relay;
@end

@implementation InboxPoller

- (void)start {
    self.relay = [RelayTimer relayEvery:30 target:self selector:@selector(checkInbox)];
}

- (void)checkInbox {
    NSLog(@"checking inbox");
}

@end
