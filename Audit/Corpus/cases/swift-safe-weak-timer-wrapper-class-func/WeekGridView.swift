// swift-format-ignore-file
import UIKit

final class WeekGridView: UIView {
    private var nowLineTimer: Timer?

    func startNowLine() {
        nowLineTimer = SoftTimer.schedule(interval: 60, owner: self, repeats: true) { [weak self] _ in
            self?.setNeedsLayout()
        }
    }

    deinit {
        nowLineTimer?.invalidate()
    }
}
