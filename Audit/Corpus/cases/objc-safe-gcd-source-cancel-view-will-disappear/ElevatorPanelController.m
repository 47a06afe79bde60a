#import "ElevatorPanelController.h"

@implementation ElevatorPanelController {
    dispatch_source_t _floorSource;
}

- (void)viewDidAppear:(BOOL)animated {
    [super viewDidAppear:animated];
    _floorSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_source_set_timer(_floorSource, DISPATCH_TIME_NOW, NSEC_PER_SEC, 0);
    dispatch_source_set_event_handler(_floorSource, ^{
        [self refreshFloorIndicator];
    });
    dispatch_resume(_floorSource);
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    dispatch_source_cancel(_floorSource);
    _floorSource = nil;
}

- (void)refreshFloorIndicator {
}

@end
