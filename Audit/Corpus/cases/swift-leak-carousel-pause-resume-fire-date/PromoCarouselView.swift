// swift-format-ignore-file
import UIKit

final class PromoCarouselView: UIView, UIScrollViewDelegate {
    private var flipTimer: Timer?
    private let pages = UIScrollView()

    func beginFlipping() {
        flipTimer = Timer.scheduledTimer(timeInterval: 3, target: self, selector: #selector(flipToNextPromo), userInfo: nil, repeats: true)
    }

    func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {
        flipTimer?.fireDate = .distantFuture
    }

    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {
        flipTimer?.fireDate = Date(timeIntervalSinceNow: 3)
    }

    @objc private func flipToNextPromo() {
        pages.contentOffset.x += bounds.width
    }
}
