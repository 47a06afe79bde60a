#import "PodcastPlayerController.h"

@implementation PodcastPlayerController

- (IBAction)togglePlayback:(UIButton *)sender {
    if (episodePlayer.isPlaying) {
        [episodePlayer pause];
    } else {
        [episodePlayer play];
        [NSTimer scheduledTimerWithTimeInterval:0.5 target:self selector:@selector(syncScrubber) userInfo:nil repeats:YES];
    }
}

- (void)syncScrubber {
    self.scrubber.value = episodePlayer.currentTime;
}

- (IBAction)close:(id)sender {
    [episodePlayer pause];
    [self.navigationController popViewControllerAnimated:YES];
}

@end
