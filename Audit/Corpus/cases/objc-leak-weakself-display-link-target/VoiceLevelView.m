#import "VoiceLevelView.h"

@interface VoiceLevelView ()
@property (nonatomic, strong) CADisplayLink *levelLink;
@property (nonatomic, strong) NSMutableArray<NSNumber *> *levels;
@end

@implementation VoiceLevelView

- (void)startListening {
    [self levelLink];
}

- (CADisplayLink *)levelLink {
    if (_levelLink == nil) {
        __weak typeof(self) weakSelf = self;
        _levelLink = [CADisplayLink displayLinkWithTarget:weakSelf selector:@selector(sampleLevel)];
        [_levelLink addToRunLoop:[NSRunLoop currentRunLoop] forMode:NSRunLoopCommonModes];
    }
    return _levelLink;
}

- (void)sampleLevel {
    [self.levels addObject:@([self.recorder averagePower])];
    [self setNeedsDisplay];
}

@end
