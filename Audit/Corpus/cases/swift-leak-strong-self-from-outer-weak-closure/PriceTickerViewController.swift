// swift-format-ignore-file
import UIKit

final class PriceTickerViewController: UIViewController {
    var priceTimer: Timer?
    var lastPrice: Double = 0

    override func viewDidLoad() {
        super.viewDidLoad()
        DispatchQueue.main.async { [weak self] in
            guard let self else { return }
            self.priceTimer = Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in
                self.lastPrice += 0.01
            }
        }
    }
}
