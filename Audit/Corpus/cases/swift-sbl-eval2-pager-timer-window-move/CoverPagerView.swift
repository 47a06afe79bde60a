// swift-format-ignore-file
import UIKit

open class CoverPagerView: UIView {
    open var slideEvery: CGFloat = 0 {
        didSet {
            stopSliding()
            if slideEvery > 0 { beginSliding() }
        }
    }
    internal var slideTimer: Timer?
    let strip = UICollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())

    open override func willMove(toWindow newWindow: UIWindow?) {
        super.willMove(toWindow: newWindow)
        if newWindow != nil {
            beginSliding()
        } else {
            stopSliding()
        }
    }

    fileprivate func beginSliding() {
        guard slideEvery > 0 && slideTimer == nil else { return }
        slideTimer = Timer.scheduledTimer(timeInterval: TimeInterval(slideEvery), target: self, selector: #selector(self.slideToNext(sender:)), userInfo: nil, repeats: true)
        RunLoop.current.add(slideTimer!, forMode: .common)
    }

    @objc
    fileprivate func slideToNext(sender: Timer?) {
        guard let _ = superview, let _ = window else { return }
        strip.setContentOffset(CGPoint(x: strip.contentOffset.x + bounds.width, y: 0), animated: true)
    }

    fileprivate func stopSliding() {
        guard slideTimer != nil else { return }
        slideTimer!.invalidate()
        slideTimer = nil
    }
}
