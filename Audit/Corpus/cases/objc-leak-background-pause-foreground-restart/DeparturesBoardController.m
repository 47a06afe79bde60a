#import "DeparturesBoardController.h"

@implementation DeparturesBoardController {
    NSTimer *_departuresTimer;
}

- (void)viewDidLoad {
    [super viewDidLoad];
    NSNotificationCenter *center = [NSNotificationCenter defaultCenter];
    [center addObserver:self selector:@selector(boardDidEnterBackground:) name:UIApplicationDidEnterBackgroundNotification object:nil];
    [center addObserver:self selector:@selector(boardWillEnterForeground:) name:UIApplicationWillEnterForegroundNotification object:nil];
    [self startDeparturesPolling];
}

- (void)startDeparturesPolling {
    _departuresTimer = [NSTimer scheduledTimerWithTimeInterval:20 target:self selector:@selector(reloadDepartures) userInfo:nil repeats:YES];
}

- (void)boardDidEnterBackground:(NSNotification *)note {
    [_departuresTimer invalidate];
    _departuresTimer = nil;
}

- (void)boardWillEnterForeground:(NSNotification *)note {
    [self startDeparturesPolling];
}

- (void)reloadDepartures {
}

@end
