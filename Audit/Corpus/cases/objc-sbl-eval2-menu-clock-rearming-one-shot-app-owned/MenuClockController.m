#import "MenuClockController.h"

@implementation MenuClockController
{
    NSTimer *_minuteTimer;
    NSCalendar *_clockCalendar;
}

- (void)viewDidLoad
{
    [super viewDidLoad];
    _clockCalendar = [NSCalendar currentCalendar];
    [self scheduleMinuteTick];
}

- (void)scheduleMinuteTick
{
    [self refreshMenuTitle];
    NSDateComponents *comp = [NSDateComponents new];
    comp.second = 0;
    NSDate *fireDate = [_clockCalendar nextDateAfterDate:[NSDate date] matchingComponents:comp options:NSCalendarMatchNextTime];
    [_minuteTimer invalidate];
    _minuteTimer = [[NSTimer alloc] initWithFireDate:fireDate interval:0 target:self selector:@selector(scheduleMinuteTick) userInfo:nil repeats:NO];
    [NSRunLoop.mainRunLoop addTimer:_minuteTimer forMode:NSRunLoopCommonModes];
}

- (void)refreshMenuTitle
{
    self.statusTitle = [NSDateFormatter localizedStringFromDate:[NSDate date] dateStyle:NSDateFormatterNoStyle timeStyle:NSDateFormatterShortStyle];
}

@end
