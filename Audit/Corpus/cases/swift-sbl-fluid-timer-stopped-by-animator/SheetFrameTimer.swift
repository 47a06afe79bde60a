// swift-format-ignore-file
import UIKit

internal class SheetFrameTimer {
    var frameLink: CADisplayLink?
    var frameCallback: (() -> Void)?

    func startFrames(_ callback: @escaping () -> Void) {
        frameCallback = callback
        guard frameLink == nil else { return }
        frameLink = CADisplayLink(target: self, selector: #selector(frameTick))
        frameLink?.add(to: .current, forMode: .common)
    }

    @objc func frameTick() {
        frameCallback?()
    }

    func stopFrames() {
        frameLink?.invalidate()
        frameLink = nil
        frameCallback = nil
    }
}
