// swift-format-ignore-file
import UIKit

final class ArenaLoop: NSObject {
    let step: () -> Void
    var link: CADisplayLink!

    init(step: @escaping () -> Void) {
        self.step = step
        super.init()
        run()
    }

    @objc func onFrame() {
        step()
    }

    func run() {
        link = CADisplayLink(target: self, selector: #selector(onFrame))
        link.preferredFramesPerSecond = 0
        link.add(to: .main, forMode: .common)
    }

    func halt() {
        link.invalidate()
        link = nil
    }
}
