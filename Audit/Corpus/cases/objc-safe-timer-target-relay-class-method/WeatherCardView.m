#import "WeakTimerTarget.h"

@interface WeatherCardView : UIView
@property (nonatomic, strong) NSTimer *reloadTimer;
@end

@implementation WeatherCardView

- (void)awakeFromNib {
    [super awakeFromNib];
    self.reloadTimer = [WeakTimerTarget timerEvery:600 target:self selector:@selector(reloadForecast:) repeats:YES];
}

- (void)reloadForecast:(NSTimer *)timer {
    NSLog(@"reload forecast");
}

- (void)dealloc {
    [self.reloadTimer invalidate];
}

@end
