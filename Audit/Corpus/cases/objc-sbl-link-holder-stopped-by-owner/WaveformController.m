#import "FrameTicker.h"

@interface WaveformController : UIViewController <FrameTickerDelegate>
@property (nonatomic, strong) FrameTicker *ticker;
@end

@implementation WaveformController

- (void)viewWillAppear:(BOOL)animated {
    [super viewWillAppear:animated];
    self.ticker = [FrameTicker new];
    self.ticker.delegate = self;
    [self.ticker startTicking];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    [self.ticker stopTicking];
}

- (void)frameTickerDidTick:(CFTimeInterval)duration {
    [self.view setNeedsDisplay];
}

@end
