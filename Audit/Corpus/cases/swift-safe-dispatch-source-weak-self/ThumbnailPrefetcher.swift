// swift-format-ignore-file
import Foundation

final class ThumbnailPrefetcher {
    private var prefetchSource: DispatchSourceTimer?
    private var queued: [URL] = []

    func start() {
        let source = DispatchSource.makeTimerSource(queue: .global(qos: .background))
        source.schedule(deadline: .now(), repeating: .seconds(3))
        source.setEventHandler { [weak self] in
            self?.prefetchNext()
        }
        source.resume()
        prefetchSource = source
    }

    private func prefetchNext() {
        if !queued.isEmpty {
            queued.removeFirst()
        }
    }

    deinit {
        prefetchSource?.cancel()
    }
}
