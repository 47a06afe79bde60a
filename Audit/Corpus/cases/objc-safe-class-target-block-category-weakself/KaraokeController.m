#import <UIKit/UIKit.h>

@interface NSTimer (Repeat)
+ (instancetype)rp_every:(NSTimeInterval)interval do:(void (^)(NSTimer *timer))block;
@end

@interface KaraokeController : UIViewController
@property (nonatomic, strong) NSTimer *highlightTimer;
@property (nonatomic, assign) NSInteger word;
@end

@implementation KaraokeController

- (void)viewDidLoad {
    [super viewDidLoad];
    __weak typeof(self) weakSelf = self;
    self.highlightTimer = [NSTimer rp_every:0.3 do:^(NSTimer *timer) {
        KaraokeController *strongSelf = weakSelf;
        if (!strongSelf) {
            [timer invalidate];
            return;
        }
        strongSelf.word += 1;
    }];
}

@end
