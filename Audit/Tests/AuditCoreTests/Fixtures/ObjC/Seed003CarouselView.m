// Seed 003, the problem: a carousel view keeps its timer weakly and targets itself. RunLoop → timer →
// view stays, so the view (and the controller that showed it) is never freed.
@interface CarouselView : UIView
@property (nonatomic, weak) NSTimer *timer;
@end

@implementation CarouselView

- (void)startAutoScroll {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:3.0
                                                  target:self // expect: weak-timer-property-no-fix
                                                selector:@selector(showNextPage)
                                                userInfo:nil
                                                 repeats:YES];
}

- (void)showNextPage {
}

@end
