// swift-format-ignore-file
import UIKit

protocol FrameTickListener: AnyObject {
    func frameTicked(delta: CFTimeInterval)
}

class FrameTickNotifier {
    weak var listener: FrameTickListener?
    internal var tickLink: CADisplayLink? = nil
    internal var previousStamp: CFTimeInterval = 0.0

    deinit {
        endTickLink()
    }

    init(listener: FrameTickListener) {
        self.listener = listener
        beginTickLink()
    }

    private func beginTickLink() {
        guard tickLink == nil else {
            return
        }
        tickLink = CADisplayLink(target: self, selector: #selector(tickLinkFired))
        tickLink?.add(to: .main, forMode: .common)
        previousStamp = 0.0
    }

    private func endTickLink() {
        tickLink?.invalidate()
        tickLink = nil
        previousStamp = 0.0
    }

    @objc private func tickLinkFired() {
        guard let tickLink = tickLink else {
            return
        }
        let now = tickLink.timestamp
        let delta = previousStamp == 0 ? 0 : now - previousStamp
        previousStamp = now
        listener?.frameTicked(delta: delta)
    }
}
