#import "ExportMonitor.h"

@implementation ExportMonitor {
    dispatch_source_t _watch;
}

- (void)watchExport:(NSProgress *)exportProgress {
    _watch = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_main_queue());
    dispatch_source_set_timer(_watch, dispatch_walltime(NULL, 0), NSEC_PER_SEC / 4, NSEC_PER_SEC / 20);
    dispatch_source_set_event_handler(_watch, ^{
        [self.delegate exportMonitor:self didUpdateProgress:exportProgress.fractionCompleted];
        if (exportProgress.finished || exportProgress.cancelled) {
            dispatch_source_cancel(self->_watch);
            self->_watch = nil;
            [self.delegate exportMonitorDidFinish:self];
        }
    });
    dispatch_resume(_watch);
}

@end
