#import "VoiceMemoController.h"

@interface VoiceMemoController ()
@property (weak, nonatomic) IBOutlet UIProgressView *memoProgress;
@property (nonatomic, strong) AVAudioPlayer *memoPlayer;
@property (nonatomic, strong) NSTimer *progressTimer;
@end

@implementation VoiceMemoController

- (IBAction)play:(id)sender {
    [self.memoPlayer play];
    self.progressTimer = [NSTimer scheduledTimerWithTimeInterval:1.0 target:self selector:@selector(refreshProgress:) userInfo:nil repeats:YES];
}

- (void)refreshProgress:(NSTimer *)timer {
    if (self.memoPlayer.duration > 0) {
        self.memoProgress.progress = self.memoPlayer.currentTime / self.memoPlayer.duration;
    }
}

- (IBAction)stop:(id)sender {
    self.memoPlayer.currentTime = 0;
    [self.memoPlayer stop];
}

- (IBAction)pause:(id)sender {
    [self.memoPlayer pause];
}

@end
