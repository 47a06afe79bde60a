// swift-format-ignore-file
import UIKit

class GCDRepeater: NSObject {
    private var queue = dispatch_queue_create("repeater", nil)
    private var source: dispatch_source_t!
    private var skipFirst = true
    private var work: () -> ()

    init(work: () -> ()) {
        self.work = work
        super.init()
    }

    func startEvery(seconds: Double) {
        self.skipFirst = true
        self.cancel()
        self.source = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, self.queue)
        dispatch_source_set_timer(self.source, dispatch_walltime(nil, 0), UInt64(seconds * Double(NSEC_PER_SEC)), UInt64(0.05 * Double(NSEC_PER_SEC)))
        dispatch_source_set_event_handler(self.source, {
            if self.skipFirst {
                self.skipFirst = false
                return
            }
            self.work()
        })
        dispatch_resume(self.source)
    }

    func cancel() {
        if self.source != nil {
            dispatch_source_cancel(self.source)
        }
    }
}
