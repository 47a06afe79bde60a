// swift-format-ignore-file
import Foundation

class ElapsedSecondsTimer {
    private var timer: Foundation.Timer?

    init(onSecond: @escaping (Int) -> Void) {
        let started = Date()
        timer = Foundation.Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true) { _ in
            onSecond(-Int(started.timeIntervalSinceNow))
        }
    }

    func invalidate() {
        timer?.invalidate()
    }

    deinit {
        invalidate()
    }
}
