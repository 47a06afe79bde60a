// swift-format-ignore-file
import Foundation

class DraftSyncService: NSObject {
    private let syncQueue = dispatch_queue_create("draft.sync", DISPATCH_QUEUE_SERIAL)
    private var syncSource: dispatch_source_t?
    var pendingDrafts: [String] = []

    func beginSyncing() {
        let source = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, syncQueue)
        dispatch_source_set_timer(source, DISPATCH_TIME_NOW, 30 * NSEC_PER_SEC, NSEC_PER_SEC)
        dispatch_source_set_event_handler(source) {
            self.uploadPending()
        }
        dispatch_resume(source)
        syncSource = source
    }

    func uploadPending() {
        pendingDrafts.removeAll()
    }
}
