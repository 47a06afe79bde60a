#import "LogUploader.h"

@implementation LogUploader {
    dispatch_source_t _uploadSource;
    NSUInteger _batches;
}

- (void)startUploading {
    _uploadSource = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_source_set_timer(_uploadSource, DISPATCH_TIME_NOW, 10 * NSEC_PER_SEC, 1 * NSEC_PER_SEC);
    dispatch_source_set_event_handler(_uploadSource, ^{
        [self uploadNextBatch];
    });
    dispatch_resume(_uploadSource);
}

- (void)uploadNextBatch {
    _batches++;
}

@end
