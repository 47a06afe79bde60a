#import "LooseTimer.h"

@interface ChatRoomController : UIViewController
@property (nonatomic, strong) NSTimer *typingTimer;
@end

@implementation ChatRoomController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.typingTimer = [LooseTimer scheduledTimerWithTimeInterval:2 target:self selector:@selector(refreshTyping:) userInfo:nil repeats:YES];
}

- (void)refreshTyping:(NSTimer *)timer {
    NSLog(@"who is typing");
}

@end
