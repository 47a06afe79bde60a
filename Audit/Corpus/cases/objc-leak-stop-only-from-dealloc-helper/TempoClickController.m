#import "TempoClickController.h"

@implementation TempoClickController {
    NSTimer *_beatTimer;
    NSInteger _beats;
}

- (void)viewDidLoad {
    [super viewDidLoad];
    _beatTimer = [NSTimer scheduledTimerWithTimeInterval:0.5 target:self selector:@selector(playBeat:) userInfo:nil repeats:YES];
}

- (void)playBeat:(NSTimer *)timer {
    _beats++;
}

- (void)silenceMetronome {
    [_beatTimer invalidate];
    _beatTimer = nil;
}

- (void)dealloc {
    [self silenceMetronome];
}

@end
