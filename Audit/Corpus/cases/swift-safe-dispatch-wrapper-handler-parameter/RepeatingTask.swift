// swift-format-ignore-file
import Foundation

final class RepeatingTask {
    private var source: DispatchSourceTimer?

    func start(on queue: DispatchQueue = .main, every interval: DispatchTimeInterval = .seconds(1), work: @escaping () -> Void) {
        guard source == nil else { return }
        let timer = DispatchSource.makeTimerSource(flags: [], queue: queue)
        timer.schedule(deadline: .now(), repeating: interval, leeway: .nanoseconds(0))
        timer.setEventHandler { work() }
        timer.activate()
        source = timer
    }

    func stop() {
        source?.cancel()
        source = nil
    }

    deinit {
        source?.cancel()
    }
}
