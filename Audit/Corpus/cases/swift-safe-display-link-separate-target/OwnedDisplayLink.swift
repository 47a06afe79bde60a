// swift-format-ignore-file
import UIKit

public final class OwnedDisplayLink {
    public let link: CADisplayLink
    public var onStep: ((CADisplayLink) -> Void)? {
        didSet { receiver.onStep = onStep }
    }

    private let receiver: StepReceiver

    public init(start: Bool = true) {
        receiver = StepReceiver()
        link = CADisplayLink(target: receiver, selector: #selector(StepReceiver.step(_:)))
        if start {
            link.add(to: .main, forMode: .default)
        }
    }

    deinit {
        link.invalidate()
    }
}

private final class StepReceiver {
    var onStep: ((CADisplayLink) -> Void)?

    @objc func step(_ link: CADisplayLink) {
        onStep?(link)
    }
}
