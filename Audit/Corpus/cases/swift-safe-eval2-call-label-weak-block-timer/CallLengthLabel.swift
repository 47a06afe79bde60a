// swift-format-ignore-file
import UIKit

final class CallLengthLabel: UILabel {
    private var lengthTimer: Timer?
    var suffixText: String?

    deinit {
        stopLengthTimer()
    }

    func runLengthTimer(with source: @autoclosure @escaping () -> TimeInterval) {
        if lengthTimer != nil { return }
        lengthTimer = Timer.scheduledTimer(
            withTimeInterval: 1,
            repeats: true,
            block: { [weak self] _ in
                self?.text = "\(Int(source()))\(self?.suffixText ?? "")"
            }
        )
    }

    func stopLengthTimer() {
        lengthTimer?.invalidate()
        lengthTimer = nil
    }
}
