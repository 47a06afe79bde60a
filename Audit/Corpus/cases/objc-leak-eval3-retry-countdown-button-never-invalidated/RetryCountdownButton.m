#import "RetryCountdownButton.h"

static NSString *RETRY_MARK = @"__retry__";

@interface RetryCountdownButton ()
@property (strong, nonatomic) NSTimer *retryTimer;
@property (strong, nonatomic) NSString *retryTitleTemplate;
@property (nonatomic, assign) NSInteger retryRemaining;
@end

@implementation RetryCountdownButton

- (void)setRetrySeconds:(NSInteger)retrySeconds {
    _retrySeconds = retrySeconds;
    self.enabled = NO;
    self.retryTimer = [NSTimer timerWithTimeInterval:1
                                              target:self
                                            selector:@selector(retryTick:)
                                            userInfo:nil repeats:YES];
    [[NSRunLoop mainRunLoop] addTimer:self.retryTimer forMode:NSRunLoopCommonModes];
    self.retryRemaining = self.retrySeconds;
    self.retryTitleTemplate = self.titleLabel.text ?: RETRY_MARK;
    [self refreshRetryTitle];
}

- (void)retryTick:(NSTimer *)timer {
    self.retryRemaining--;
}

- (void)refreshRetryTitle {
    self.titleLabel.text = [self.retryTitleTemplate stringByReplacingOccurrencesOfString:RETRY_MARK withString:[@(self.retryRemaining) stringValue]];
}

@end
