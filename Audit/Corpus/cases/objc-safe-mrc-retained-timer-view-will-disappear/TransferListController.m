#import "TransferListController.h"

@implementation TransferListController

- (void)viewWillAppear:(BOOL)animated {
    [super viewWillAppear:animated];
    [transferTimer_ invalidate];
    [transferTimer_ release];
    transferTimer_ = [[NSTimer scheduledTimerWithTimeInterval:5.0 target:self selector:@selector(reloadTransfers) userInfo:nil repeats:YES] retain];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    [transferTimer_ invalidate];
    [transferTimer_ release];
    transferTimer_ = nil;
}

- (void)reloadTransfers {
}

@end
