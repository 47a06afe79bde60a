// Severity follows the life cycle in Objective-C: a note naming the method that stops the timer when
// something calls it, a warning when nothing does, nothing for life-cycle stops, singletons and app
// delegates; one-shot timers that re-arm themselves; look-alike classes that hold their target weakly.
#import <UIKit/UIKit.h>
#import <AppKit/AppKit.h>

@interface LoadingIndicator : UIView
@property (nonatomic, strong) CADisplayLink *link;
@end

@implementation LoadingIndicator

- (void)startAnimating {
    self.link = [CADisplayLink displayLinkWithTarget:self selector:@selector(step:)];  // expect-note: display-link-target-retain
    [self.link addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
}

- (void)stopAnimating {
    [self.link invalidate];
    self.link = nil;
}

- (void)setHidden:(BOOL)hidden {
    [super setHidden:hidden];
    if (hidden) [self stopAnimating];
}

- (void)step:(CADisplayLink *)link {}

@end

@interface UploadMonitor ()
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation UploadMonitor

- (void)watch {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:2 target:self selector:@selector(check) userInfo:nil repeats:YES];  // expect: timer-target-retain
}

- (void)teardown {
    [self.timer invalidate];
}

- (void)check {}

@end

// A custom setter that invalidates the old timer: `self.timer = nil` stops it.
@interface ReconnectTimer ()
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation ReconnectTimer

- (void)setTimer:(NSTimer *)timer {
    [_timer invalidate];
    _timer = timer;
}

- (void)retry {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:5 target:self selector:@selector(reconnect) userInfo:nil repeats:YES];  // expect-note: timer-target-retain
}

- (void)connected {
    self.timer = nil;
}

- (void)reconnect {}

@end

// Stopped by its own callback; a view stopped when it leaves its superview; AppKit's view controller and
// window delegate.
@implementation FadeView {
    NSTimer *_fadeTimer;
    NSTimer *_blinkTimer;
    NSInteger _steps;
}

- (void)fadeOut {
    _fadeTimer = [NSTimer scheduledTimerWithTimeInterval:0.05 target:self selector:@selector(fadeStep:) userInfo:nil repeats:YES];  // expect-note: timer-target-retain
    _blinkTimer = [NSTimer scheduledTimerWithTimeInterval:0.5 target:self selector:@selector(blink) userInfo:nil repeats:YES];
}

- (void)fadeStep:(NSTimer *)timer {
    if (++_steps == 20) {
        [timer invalidate];
    }
}

- (void)didMoveToSuperview {
    [super didMoveToSuperview];
    if (!self.superview) [_blinkTimer invalidate];
}

- (void)blink {}

@end

@interface MeterViewController : NSViewController
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation MeterViewController

- (void)viewDidAppear {
    [super viewDidAppear];
    self.timer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(sample) userInfo:nil repeats:YES];
}

- (void)viewDidDisappear {
    [super viewDidDisappear];
    [self.timer invalidate];
}

- (void)sample {}

@end

@implementation LogWindowController {
    NSTimer *_timer;
}

- (void)showWindow:(id)sender {
    [super showWindow:sender];
    _timer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(flush) userInfo:nil repeats:YES];
}

- (void)windowWillClose:(NSNotification *)notification {
    [_timer invalidate];
}

- (void)flush {}

@end

// Owners that live for the whole process.
@interface SyncManager ()
@property (nonatomic, strong) NSTimer *keepAlive;
@end

@implementation SyncManager

+ (instancetype)sharedManager {
    static SyncManager *shared;
    static dispatch_once_t once;
    dispatch_once(&once, ^{ shared = [[self alloc] init]; });
    return shared;
}

- (void)start {
    self.keepAlive = [NSTimer scheduledTimerWithTimeInterval:30 target:self selector:@selector(ping) userInfo:nil repeats:YES];
}

- (void)ping {}

@end

@interface AppDelegate : UIResponder <UIApplicationDelegate>
@property (nonatomic, strong) NSTimer *badgeTimer;
@end

@implementation AppDelegate

- (BOOL)application:(UIApplication *)application didFinishLaunchingWithOptions:(NSDictionary *)options {
    self.badgeTimer = [NSTimer scheduledTimerWithTimeInterval:300 target:self selector:@selector(refresh) userInfo:nil repeats:YES];
    return YES;
}

- (void)refresh {}

@end

// One-shot timers that their callback schedules again.
@implementation Reloader

- (void)scheduleReload {
    [NSTimer scheduledTimerWithTimeInterval:10 target:self selector:@selector(reload) userInfo:nil repeats:NO];  // expect: timer-target-retain
}

- (void)reload {
    [self scheduleReload];
}

- (void)tick {
    [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(tick) userInfo:nil repeats:NO];  // expect: timer-target-retain
}

- (void)loop {
    [NSTimer scheduledTimerWithTimeInterval:1 repeats:NO block:^(NSTimer *t) {
        [self loop];  // expect: block-timer-strong-self
    }];
}

- (void)once {
    [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(reload) userInfo:nil repeats:NO];
}

@end

// A look-alike that holds its target weakly, and one that keeps it strongly.
@interface WeakDisplayLink : NSObject
@property (nonatomic, weak) id target;
+ (instancetype)displayLinkWithTarget:(id)target selector:(SEL)selector;
@end

@interface RetainingTimer : NSObject
@property (nonatomic, strong) id target;
+ (instancetype)scheduledTimerWithTimeInterval:(NSTimeInterval)interval target:(id)target selector:(SEL)selector userInfo:(id)userInfo repeats:(BOOL)repeats;
@end

@implementation FPSCounter

- (void)start {
    [WeakDisplayLink displayLinkWithTarget:self selector:@selector(frame:)];
    [RetainingTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(report) userInfo:nil repeats:YES];  // expect: timer-target-retain
    [MSUnknownTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(report) userInfo:nil repeats:YES];
}

- (void)frame:(id)link {}
- (void)report {}

@end

// A category on NSTimer that keeps the block in the timer it schedules: the block's self is retained.
@implementation TypingIndicator

- (void)animate {
    self.dotTimer = [NSTimer cb_every:0.4 repeats:YES run:^{
        [self setNeedsDisplay];  // expect: block-timer-strong-self
    }];
    self.otherTimer = [NSTimer cb_every:0.4 repeats:YES run:^{
        NSLog(@"tick");
    }];
}

@end

// The old timer invalidated just before the new one is made: nothing stops the new one.
@interface BannerRotator ()
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation BannerRotator

- (void)startRotating {
    [self.timer invalidate];
    self.timer = [NSTimer scheduledTimerWithTimeInterval:4 target:self selector:@selector(rotate) userInfo:nil repeats:YES];  // expect: timer-target-retain
}

- (void)rotate {}

@end

// A stop method given as a button's action is called, through its selector.
@interface SlideshowController ()
@property (nonatomic, strong) NSTimer *timer;
@end

@implementation SlideshowController

- (void)start {
    self.timer = [NSTimer scheduledTimerWithTimeInterval:3 target:self selector:@selector(next) userInfo:nil repeats:YES];  // expect-note: timer-target-retain
    [self.stopButton addTarget:self action:@selector(stopSlideshow) forControlEvents:UIControlEventTouchUpInside];
}

- (void)stopSlideshow {
    [self.timer invalidate];
}

- (void)next {}

@end
