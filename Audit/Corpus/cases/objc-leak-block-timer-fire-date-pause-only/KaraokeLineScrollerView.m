#import "KaraokeLineScrollerView.h"

@interface KaraokeLineScrollerView ()
@property (nonatomic, strong) NSTimer *lyricTimer;
@property (nonatomic, assign) NSInteger lyricLine;
@end

@implementation KaraokeLineScrollerView

- (void)playLyrics {
    self.lyricTimer = [NSTimer scheduledTimerWithTimeInterval:2 repeats:YES block:^(NSTimer *timer) {
        self.lyricLine += 1;
    }];
}

- (void)pauseLyrics {
    self.lyricTimer.fireDate = [NSDate distantFuture];
}

- (void)resumeLyrics {
    self.lyricTimer.fireDate = [NSDate date];
}

@end
