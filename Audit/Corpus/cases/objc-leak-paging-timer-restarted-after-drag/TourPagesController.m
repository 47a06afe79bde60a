#import "TourPagesController.h"

@interface TourPagesController () <UIScrollViewDelegate>
@property (weak, nonatomic) IBOutlet UIScrollView *pages;
@property (weak, nonatomic) IBOutlet UIPageControl *dots;
@property (nonatomic, strong) NSTimer *autoTimer;
@end

@implementation TourPagesController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.pages.pagingEnabled = YES;
    [self beginAutoAdvance];
}

- (void)beginAutoAdvance {
    self.autoTimer = [NSTimer scheduledTimerWithTimeInterval:2.5 target:self selector:@selector(showNextPage) userInfo:nil repeats:YES];
}

- (void)pauseAutoAdvance {
    [self.autoTimer invalidate];
}

- (void)showNextPage {
    NSInteger next = (self.dots.currentPage + 1) % self.dots.numberOfPages;
    [self.pages setContentOffset:CGPointMake(next * CGRectGetWidth(self.pages.frame), 0) animated:YES];
}

- (void)scrollViewWillBeginDragging:(UIScrollView *)scrollView {
    [self pauseAutoAdvance];
}

- (void)scrollViewDidEndDragging:(UIScrollView *)scrollView willDecelerate:(BOOL)decelerate {
    [self beginAutoAdvance];
}

@end
