// swift-format-ignore-file
import QuartzCore

final class DisplayLink {
    private weak var target: AnyObject?
    private let selector: Selector
    private var link: CADisplayLink?

    init(target: AnyObject, selector: Selector) {
        self.target = target
        self.selector = selector
        let proxy = FrameProxy()
        link = CADisplayLink(target: proxy, selector: #selector(FrameProxy.frame(_:)))
        proxy.owner = self
    }

    func add(to runLoop: RunLoop, forMode mode: RunLoop.Mode) {
        link?.add(to: runLoop, forMode: mode)
    }

    fileprivate func relay() {
        _ = target?.perform(selector, with: self)
    }

    deinit {
        link?.invalidate()
    }
}

private final class FrameProxy: NSObject {
    weak var owner: DisplayLink?

    @objc func frame(_ link: CADisplayLink) {
        if let owner = owner {
            owner.relay()
        } else {
            link.invalidate()
        }
    }
}
