// swift-format-ignore-file
import Foundation

final class CacheJanitor {
    private var sweepSource: DispatchSourceTimer?
    private var entries: [String: Date] = [:]

    func startSweeping() {
        let source = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        source.schedule(deadline: .now() + 60, repeating: 60)
        source.setEventHandler {
            self.sweepExpired()
        }
        source.resume()
        sweepSource = source
    }

    private func sweepExpired() {
        let cutoff = Date().addingTimeInterval(-600)
        entries = entries.filter { $0.value > cutoff }
    }
}
