// Code inside #if 0 is never compiled: no finding; the #else branch is analysed.
#import <UIKit/UIKit.h>

@implementation OldController

- (void)viewDidLoad {
    [super viewDidLoad];
#if 0
    // the old leaky version, kept for reference
    _timer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(tick) userInfo:nil repeats:YES];
#endif
}

- (void)tick {}


- (void)viewWillAppear:(BOOL)animated {
#if 0
#ifdef DEBUG
    _timer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(tick) userInfo:nil repeats:YES];
#endif
    _timer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(tick) userInfo:nil repeats:YES];
#else
    _timer = [NSTimer scheduledTimerWithTimeInterval:2 target:self selector:@selector(tick) userInfo:nil repeats:YES];  // expect: timer-target-retain
#endif
}

@end
