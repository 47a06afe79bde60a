// swift-format-ignore-file
import UIKit

class FrameClock: NSObject {

    private var link: CADisplayLink!
    private var startedAt: CFTimeInterval = CACurrentMediaTime()

    var onFrame: ((_ elapsed: CFTimeInterval) -> Void)?

    func start() {
        link = CADisplayLink(target: self, selector: #selector(frame))
        startedAt = CACurrentMediaTime()
        link.add(to: .main, forMode: .common)
    }

    func release() {
        link.remove(from: .main, forMode: .common)
    }

    @objc private func frame() {
        onFrame?(CACurrentMediaTime() - startedAt)
    }
}
