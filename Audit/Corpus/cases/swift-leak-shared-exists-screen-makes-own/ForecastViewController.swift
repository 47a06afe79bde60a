// swift-format-ignore-file
import UIKit

final class ForecastViewController: UIViewController {
    let forecastPoller = PollenPoller()

    override func viewDidLoad() {
        super.viewDidLoad()
        forecastPoller.beginPollenPolling()
    }
}
