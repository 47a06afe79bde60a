#import "IdentifyCodeController.h"

@interface IdentifyCodeController ()
@property (nonatomic, strong) UIButton *identifyButton;
@end

@implementation IdentifyCodeController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.identifyButton = [UIButton buttonWithType:UIButtonTypeSystem];
    [self.view addSubview:self.identifyButton];
    [self startIdentifyCountdown];
}

- (void)startIdentifyCountdown {
    __block int identifyLeft = 60;
    dispatch_queue_t queue = dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0);
    dispatch_source_t identifySource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, queue);
    dispatch_source_set_timer(identifySource, dispatch_walltime(NULL, 0), 1.0 * NSEC_PER_SEC, 0);
    dispatch_source_set_event_handler(identifySource, ^{
        if (identifyLeft <= 0) {
            dispatch_source_cancel(identifySource);
            dispatch_async(dispatch_get_main_queue(), ^{
                [self.identifyButton setTitle:@"Send again" forState:UIControlStateNormal];
            });
        } else {
            dispatch_async(dispatch_get_main_queue(), ^{
                [self.identifyButton setTitle:[NSString stringWithFormat:@"%ds", identifyLeft] forState:UIControlStateNormal];
            });
            identifyLeft--;
        }
    });
    dispatch_resume(identifySource);
}

@end
