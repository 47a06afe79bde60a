// swift-format-ignore-file
import UIKit

final class AmbientColorViewController: UIViewController {
    private var shiftTimer: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        let canvas = view
        shiftTimer = Timer.scheduledTimer(withTimeInterval: 4, repeats: true) { _ in
            canvas?.backgroundColor = UIColor(hue: CGFloat.random(in: 0...1), saturation: 0.3, brightness: 0.9, alpha: 1)
        }
    }

    deinit {
        shiftTimer?.invalidate()
    }
}
