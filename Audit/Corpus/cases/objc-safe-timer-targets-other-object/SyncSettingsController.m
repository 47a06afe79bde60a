#import "SyncSettingsController.h"
#import "PhotoUploader.h"

@interface SyncSettingsController ()
@property (nonatomic, strong) PhotoUploader *uploader;
@property (nonatomic, strong) NSTimer *flushTimer;
@end

@implementation SyncSettingsController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.uploader = [PhotoUploader new];
    self.flushTimer = [NSTimer scheduledTimerWithTimeInterval:30 target:self.uploader selector:@selector(flushQueue) userInfo:nil repeats:YES];
}

- (void)dealloc {
    [_flushTimer invalidate];
}

@end
