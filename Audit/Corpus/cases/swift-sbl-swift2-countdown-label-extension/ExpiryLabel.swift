// swift-format-ignore-file
import UIKit

class ExpiryLabel: UILabel {
    var ticker: NSTimer!
    var secondsRemaining = 0
    var onExpired: (() -> Void)?

    func run(from seconds: Int) {
        secondsRemaining = seconds
        ticker = makeTicker()
    }

    func render() {
        text = "\(secondsRemaining)s"
    }
}
