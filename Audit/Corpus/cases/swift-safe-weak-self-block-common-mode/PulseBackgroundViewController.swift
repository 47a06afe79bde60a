// swift-format-ignore-file
import UIKit

final class PulseBackgroundViewController: UIViewController {
    private var pulse: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        let timer = Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true) { [weak self] _ in
            let dim = self?.view.alpha == 1
            self?.view.alpha = dim ? 0.8 : 1
        }
        timer.tolerance = 0.5
        RunLoop.current.add(timer, forMode: .common)
        pulse = timer
    }

    deinit {
        pulse?.invalidate()
    }
}
