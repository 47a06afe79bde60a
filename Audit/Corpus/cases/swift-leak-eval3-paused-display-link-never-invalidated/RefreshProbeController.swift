// swift-format-ignore-file
import UIKit
import QuartzCore

class RefreshProbeController: UIViewController {

    var refreshLink: CADisplayLink?

    @objc func screenRefreshed(displayLink: CADisplayLink) {
        print("refresh at \(displayLink.timestamp)")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        let onRefresh = #selector(screenRefreshed(displayLink:))
        refreshLink = CADisplayLink(target: self, selector: onRefresh)
        refreshLink?.add(to: RunLoop.main, forMode: RunLoop.Mode.common)
        refreshLink?.isPaused = true
    }
}
