// swift-format-ignore-file
import Foundation

final class UsageMeter {
    var sampleTimer: Timer?
    var samples = 0

    init(logger: UsageLogger) {
        sampleTimer = Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true) { [weak logger] _ in
            self.samples += 1
            logger?.record(self.samples)
        }
    }

    deinit {
        sampleTimer?.invalidate()
    }
}

final class UsageLogger {
    func record(_ value: Int) {}
}
