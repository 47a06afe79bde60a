// Captures that are not written as self: NSAssert in a block (it expands to code using self), and a block
// kept in a local before it is passed to the timer (reported where the block uses self).
#import <Foundation/Foundation.h>

@interface Sampler ()
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation Sampler

- (void)start {
    __weak typeof(self) weakSelf = self;
    self.timer = [NSTimer scheduledTimerWithTimeInterval:0.5 repeats:YES block:^(NSTimer *t) {
        NSAssert([NSThread isMainThread], @"main only");  // expect: block-timer-strong-self
        [weakSelf sample];
    }];
}

- (void)sample {}

@end

#import <Foundation/Foundation.h>

@interface Uploader ()
@property (nonatomic, strong) NSTimer *progressTimer;
@end

@implementation Uploader

- (void)start {
    void (^tick)(NSTimer *) = ^(NSTimer *t) {
        [self reportProgress];  // expect: block-timer-strong-self
    };
    self.progressTimer = [NSTimer scheduledTimerWithTimeInterval:1 repeats:YES block:tick];
}

- (void)reportProgress {}

@end

@implementation QuietUploader
- (void)start {
    __weak typeof(self) weakSelf = self;
    void (^tick)(NSTimer *) = ^(NSTimer *t) {
        NSCAssert(t != nil, @"no timer");
        [weakSelf reportProgress];
    };
    self.progressTimer = [NSTimer scheduledTimerWithTimeInterval:1 repeats:YES block:tick];
}
- (void)reportProgress {}
@end
