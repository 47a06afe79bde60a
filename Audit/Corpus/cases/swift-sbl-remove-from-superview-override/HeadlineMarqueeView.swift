// swift-format-ignore-file
import UIKit

final class HeadlineMarqueeView: UIView {
    private var scrollTimer: Timer?
    private var offset: CGFloat = 0

    func startScrolling() {
        scrollTimer?.invalidate()
        scrollTimer = Timer.scheduledTimer(timeInterval: 1.0 / 30, target: self, selector: #selector(scrollStep), userInfo: nil, repeats: true)
    }

    @objc private func scrollStep() {
        offset -= 1
        setNeedsLayout()
    }

    override func removeFromSuperview() {
        scrollTimer?.invalidate()
        scrollTimer = nil
        super.removeFromSuperview()
    }
}
