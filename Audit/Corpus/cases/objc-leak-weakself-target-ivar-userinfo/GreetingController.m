#import "GreetingController.h"

@interface GreetingController () {
    NSTimer *greetTimer;
}
@end

@implementation GreetingController

- (void)viewDidLoad {
    [super viewDidLoad];
    __weak typeof(self) weakSelf = self;
    greetTimer = [NSTimer scheduledTimerWithTimeInterval:1.0 target:weakSelf selector:@selector(greet:) userInfo:@"hello" repeats:YES];
}

- (void)greet:(NSTimer *)timer {
    NSLog(@"%@", timer.userInfo);
}

- (void)dealloc {
    if ([greetTimer isValid]) {
        [greetTimer invalidate];
    }
}

@end
