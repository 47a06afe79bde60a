// swift-format-ignore-file
import UIKit

open class StretchRefreshView: UIView {
    fileprivate var waveLink: CADisplayLink!
    var pullHandler: (() -> Void)?

    init() {
        super.init(frame: CGRect.zero)
        waveLink = CADisplayLink(target: self, selector: #selector(StretchRefreshView.waveTick))
        waveLink.add(to: RunLoop.main, forMode: RunLoop.Mode.common)
        waveLink.isPaused = true
    }

    required public init?(coder aDecoder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    func detachWaveLink() {
        waveLink?.invalidate()
    }

    fileprivate func startWave() {
        waveLink.isPaused = false
    }

    fileprivate func stopWave() {
        waveLink.isPaused = true
    }

    @objc func waveTick() {
        setNeedsLayout()
    }
}
