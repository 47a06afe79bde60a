// A stop in a responder method that UIKit or AppKit calls for the user's touch, click or key
// (touchesBegan:withEvent:, mouseDown:) counts as called, although nothing in the scan calls it: a note.
// A stop in an ordinary method that nothing calls is still a warning.
#import <UIKit/UIKit.h>
#import <AppKit/AppKit.h>

@interface TapToCloseController : UIViewController
@property (nonatomic, strong) NSTimer *closeTimer;
@end

@implementation TapToCloseController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.closeTimer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(closeTick) userInfo:nil repeats:YES];  // expect-note: timer-target-retain
}

- (void)closeTick {}

- (void)touchesBegan:(NSSet<UITouch *> *)touches withEvent:(UIEvent *)event {
    [self.closeTimer invalidate];
    [self dismissViewControllerAnimated:YES completion:nil];
}

@end

@interface ClickToStopView : NSView
@property (nonatomic, strong) NSTimer *blinkTimer;
@end

@implementation ClickToStopView

- (void)startBlinking {
    self.blinkTimer = [NSTimer scheduledTimerWithTimeInterval:0.5 target:self selector:@selector(blink) userInfo:nil repeats:YES];  // expect-note: timer-target-retain
}

- (void)blink {}

- (void)mouseDown:(NSEvent *)event {
    [self.blinkTimer invalidate];
}

@end

@interface UnreachedStopController : UIViewController
@property (nonatomic, strong) NSTimer *pollTimer;
@end

@implementation UnreachedStopController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.pollTimer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(poll) userInfo:nil repeats:YES];  // expect: timer-target-retain
}

- (void)poll {}

- (void)finishPolling {
    [self.pollTimer invalidate];
}

@end
