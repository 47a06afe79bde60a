#import "GCDTicker.h"

@interface ScannerController : UIViewController
@property (nonatomic, strong) GCDTicker *ticker;
@end

@implementation ScannerController

- (IBAction)start:(UIButton *)sender {
    [self.ticker start];
}

- (IBAction)pause:(UIButton *)sender {
    [self.ticker pause];
}

- (GCDTicker *)ticker {
    if (!_ticker) {
        _ticker = [GCDTicker tickerEvery:0.2 handler:^(GCDTicker *ticker) {
            NSLog(@"scan");
        }];
    }
    return _ticker;
}

@end
