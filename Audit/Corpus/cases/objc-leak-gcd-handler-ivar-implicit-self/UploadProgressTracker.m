#import "UploadProgressTracker.h"

@implementation UploadProgressTracker {
    NSProgress *_uploadProgress;
    dispatch_source_t _progressSource;
    int64_t _lastBytes;
    double _rate;
}

- (void)beginTracking {
    _progressSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_global_queue(QOS_CLASS_UTILITY, 0));
    dispatch_source_set_timer(_progressSource, dispatch_walltime(NULL, 0), NSEC_PER_SEC, NSEC_PER_SEC / 10);
    dispatch_source_set_event_handler(_progressSource, ^{
        int64_t sent = _uploadProgress.completedUnitCount;
        _rate = (double)(sent - _lastBytes);
        _lastBytes = sent;
    });
    dispatch_resume(_progressSource);
}

@end
