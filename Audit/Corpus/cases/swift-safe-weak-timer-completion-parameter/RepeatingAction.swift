// swift-format-ignore-file
import Foundation

class RepeatingAction {
    weak var timer: Timer?

    func start(every seconds: TimeInterval, _ completion: @escaping () -> Void) {
        timer = Timer.scheduledTimer(withTimeInterval: seconds, repeats: true) { _ in
            completion()
        }
    }

    func stop() {
        timer?.invalidate()
        timer = nil
    }

    deinit {
        timer?.invalidate()
    }
}
