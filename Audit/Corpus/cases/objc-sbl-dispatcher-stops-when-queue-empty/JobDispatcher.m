#import "JobDispatcher.h"

@interface JobDispatcher ()
@property (nonatomic, strong) NSMutableArray *pending;
@property (nonatomic, strong) NSTimer *drainTimer;
@property (nonatomic, readwrite, getter=isRunning) BOOL running;
@end

@implementation JobDispatcher

- (instancetype)init {
    if ((self = [super init])) {
        _pending = [NSMutableArray array];
    }
    return self;
}

- (void)enqueue:(id)job {
    [self.pending addObject:job];
}

- (void)start {
    if (self.running) return;
    self.running = YES;
    self.drainTimer = [NSTimer scheduledTimerWithTimeInterval:0.5 target:self selector:@selector(drainOne:) userInfo:nil repeats:YES];
}

- (void)drainOne:(NSTimer *)timer {
    if (self.pending.count == 0) {
        [self.drainTimer invalidate];
        self.drainTimer = nil;
        self.running = NO;
        return;
    }
    id job = self.pending.firstObject;
    [self.pending removeObjectAtIndex:0];
    NSLog(@"processing %@", job);
}

@end
