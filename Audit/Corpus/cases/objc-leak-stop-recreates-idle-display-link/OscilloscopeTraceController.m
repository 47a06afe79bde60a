#import "OscilloscopeTraceController.h"

@interface OscilloscopeTraceController ()
@property (nonatomic, strong) CADisplayLink *waveLink;
@end

@implementation OscilloscopeTraceController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.waveLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(drawWave:)];
    [self.waveLink addToRunLoop:[NSRunLoop currentRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)viewWillDisappear:(BOOL)animated {
    [super viewWillDisappear:animated];
    [self stopWaveform];
}

- (void)stopWaveform {
    [self.waveLink invalidate];
    self.waveLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(drawIdleWave:)];
    [self.waveLink addToRunLoop:[NSRunLoop currentRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)drawWave:(CADisplayLink *)link {
}

- (void)drawIdleWave:(CADisplayLink *)link {
}

@end
