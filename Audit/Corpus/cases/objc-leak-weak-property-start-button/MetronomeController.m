#import "MetronomeController.h"

@interface MetronomeController ()
@property (nonatomic, weak) NSTimer *beatTimer;
@end

@implementation MetronomeController

- (void)startTapped:(UIButton *)sender {
    if (self.beatTimer == nil) {
        self.beatTimer = [NSTimer scheduledTimerWithTimeInterval:0.5 target:self selector:@selector(beat:) userInfo:nil repeats:YES];
    }
}

- (void)beat:(NSTimer *)timer {
    NSLog(@"tick");
}

- (void)dealloc {
    [self.beatTimer invalidate];
    self.beatTimer = nil;
}

@end
