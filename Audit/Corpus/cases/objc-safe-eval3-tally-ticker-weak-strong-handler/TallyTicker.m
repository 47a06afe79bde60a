#import "TallyTicker.h"

@interface TallyTicker ()
@property (nonatomic, strong) dispatch_source_t tallySource;
@property (nonatomic, assign) NSUInteger tallyLimit;
@property (nonatomic, assign) NSUInteger tallyValue;
@property (nonatomic, assign) float tallyInterval;
@property (nonatomic, copy) void (^tallyStep)(NSUInteger value);
@property (nonatomic, copy) void (^tallyDone)(void);
@property (nonatomic, strong) dispatch_queue_t tallyQueue;
@end

@implementation TallyTicker

+ (instancetype)tickerCountingTo:(NSUInteger)limit interval:(float)interval step:(void (^)(NSUInteger))step done:(void (^)(void))done {
    TallyTicker *ticker = [[self alloc] init];
    ticker.tallyLimit = limit;
    ticker.tallyInterval = interval;
    ticker.tallyStep = step;
    ticker.tallyDone = done;
    ticker.tallyQueue = dispatch_queue_create("tally.ticker", DISPATCH_QUEUE_SERIAL);
    return ticker;
}

- (void)startTally {
    self.tallyValue = 0;
    _tallySource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, self.tallyQueue);
    dispatch_source_set_timer(_tallySource, dispatch_time(DISPATCH_TIME_NOW, (int64_t)(1ull * NSEC_PER_SEC)), self.tallyInterval * NSEC_PER_SEC, 0);
    __weak typeof(self) weakSelf = self;
    dispatch_source_set_event_handler(_tallySource, ^{
        __strong typeof(self) strongSelf = weakSelf;
        if (!strongSelf) {
            return;
        }
        dispatch_async(dispatch_get_main_queue(), ^{
            strongSelf.tallyValue++;
            !strongSelf.tallyStep ?: strongSelf.tallyStep(strongSelf.tallyValue);
            [strongSelf finishTallyIfReached];
        });
    });
    dispatch_resume(_tallySource);
}

- (void)finishTallyIfReached {
    if (self.tallyValue >= self.tallyLimit) {
        dispatch_source_cancel(_tallySource);
        _tallySource = nil;
        !self.tallyDone ?: self.tallyDone();
    }
}

- (void)abandonTally {
    if (!_tallySource) return;
    dispatch_source_cancel(_tallySource);
    _tallySource = nil;
    _tallyDone = nil;
}

@end
