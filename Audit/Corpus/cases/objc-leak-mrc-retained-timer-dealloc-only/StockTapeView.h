#import <UIKit/UIKit.h>

@interface StockTapeView : UIView {
    NSTimer *tapeTimer;
    CGFloat tapeOffset;
}
- (void)startTape;
@end
