#import "AutosaveController.h"

@interface AutosaveController ()
@property (nonatomic, strong) NSTimer *autosaveTimer;
@end

@implementation AutosaveController

- (void)viewDidLoad {
    [super viewDidLoad];
    SEL save = @selector(saveDraft);
    NSInvocation *call = [NSInvocation invocationWithMethodSignature:[self methodSignatureForSelector:save]];
    call.target = self;
    call.selector = save;
    self.autosaveTimer = [NSTimer scheduledTimerWithTimeInterval:20 invocation:call repeats:YES];
}

- (void)saveDraft {
    NSLog(@"autosaved");
}

@end
