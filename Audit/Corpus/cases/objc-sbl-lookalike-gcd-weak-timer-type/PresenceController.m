#import "QueueTimer.h"

@interface PresenceController : UIViewController
@property (nonatomic, strong) QueueTimer *presenceTimer;
@end

@implementation PresenceController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.presenceTimer = [QueueTimer scheduledTimerWithTimeInterval:30
                                                             target:self
                                                           selector:@selector(sendPresence:)
                                                           userInfo:nil
                                                            repeats:YES
                                                      dispatchQueue:dispatch_get_main_queue()];
}

- (void)sendPresence:(QueueTimer *)timer {
    NSLog(@"online");
}

- (void)dealloc {
    [_presenceTimer invalidate];
}

@end
