#import "PhotoReelView.h"

@interface AlbumController : UIViewController
@property (nonatomic, strong) PhotoReelView *reel;
@end

@implementation AlbumController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.reel = [[PhotoReelView alloc] initWithFrame:self.view.bounds];
    [self.view addSubview:self.reel];
    [self.reel startReel:3];
}

- (void)dealloc {
    [_reel stopReel];
}

@end
