// swift-format-ignore-file
import UIKit

final class LoadingDotsView: UIView {
    private var link: DisplayLink?
    private var phase = 0

    func startAnimating() {
        link = DisplayLink(target: self, selector: #selector(advanceDots))
        link?.add(to: .main, forMode: .common)
    }

    @objc private func advanceDots() {
        phase = (phase + 1) % 3
        setNeedsDisplay()
    }
}
