#import "CoverFlowView.h"
#import "CoverWeakProxy.h"

@implementation CoverFlowView {
    NSTimer *_coverTimer;
}

- (void)startCoverFlow {
    _coverTimer = [NSTimer scheduledTimerWithTimeInterval:3 target:[CoverWeakProxy proxyWithTarget:self] selector:@selector(flipCover) userInfo:nil repeats:YES];
}

- (void)flipCover {
}

- (void)dealloc {
    [_coverTimer invalidate];
}

@end
