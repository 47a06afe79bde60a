// swift-format-ignore-file
import UIKit

final class ShimmerPlaceholderView: UIView {
    private var shimmerLink: CADisplayLink?

    override func didMoveToSuperview() {
        super.didMoveToSuperview()
        if superview != nil {
            shimmerLink = CADisplayLink(target: self, selector: #selector(shimmerStep))
            shimmerLink?.add(to: .main, forMode: .common)
        }
    }

    func stopShimmer() {
        shimmerLink?.invalidate()
        shimmerLink = nil
    }

    @objc private func shimmerStep() {}
}
