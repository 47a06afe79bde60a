// swift-format-ignore-file
import UIKit

open class SlideRollView: UIView {
    open var reelInterval = 0.0 {
        didSet {
            reelTimer?.invalidate()
            reelTimer = nil
            armReel()
        }
    }
    fileprivate var reelTimer: Timer?
    var reelPhotos: [UIImage] = []
    let reelScroll = UIScrollView()

    open override func removeFromSuperview() {
        super.removeFromSuperview()
        holdReel()
    }

    fileprivate func armReel() {
        if reelInterval > 0 && reelPhotos.count > 1 && reelTimer == nil {
            reelTimer = Timer.scheduledTimer(timeInterval: reelInterval, target: self, selector: #selector(SlideRollView.reelTick(_:)), userInfo: nil, repeats: true)
        }
    }

    @objc func reelTick(_ timer: Timer) {
        reelScroll.setContentOffset(CGPoint(x: reelScroll.contentOffset.x + reelScroll.frame.width, y: 0), animated: true)
    }

    open func holdReel() {
        reelTimer?.invalidate()
        reelTimer = nil
    }

    open func resumeReel() {
        armReel()
    }
}
