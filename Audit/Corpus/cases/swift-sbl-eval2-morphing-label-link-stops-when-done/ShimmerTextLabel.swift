// swift-format-ignore-file
import UIKit

open class ShimmerTextLabel: UILabel {
    fileprivate var frameLink: CADisplayLink?
    var shimmerProgress: Float = 0
    var shimmerFrameCount = 0

    override open var text: String? {
        get { return super.text ?? "" }
        set {
            guard text != newValue else { return }
            super.text = newValue ?? ""
            shimmerProgress = 0
            beginShimmer()
        }
    }

    open func beginShimmer() {
        guard frameLink == nil else { return }
        frameLink = CADisplayLink(target: self, selector: #selector(shimmerFrameTick))
        frameLink?.add(to: .current, forMode: .common)
    }

    open func holdShimmer() {
        frameLink?.isPaused = true
    }

    open func endShimmer() {
        frameLink?.remove(from: .current, forMode: .common)
        frameLink?.invalidate()
        frameLink = nil
    }

    deinit {
        endShimmer()
    }
}

extension ShimmerTextLabel {
    public func applyShimmer(progress: Float) {
        guard let link = frameLink else { return }
        if link.duration > 0 && shimmerFrameCount == 0 {
            shimmerFrameCount = 30
        }
        if progress < 1.0 {
            shimmerProgress = progress
            setNeedsDisplay()
        } else {
            endShimmer()
        }
    }

    @objc func shimmerFrameTick() {
        applyShimmer(progress: shimmerProgress + 1.0 / Float(max(shimmerFrameCount, 1)))
    }
}
