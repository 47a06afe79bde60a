// swift-format-ignore-file
import UIKit

final class TrafficMapViewController: UIViewController {
    private var refresh: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        refresh = RelayTimer.scheduledTimer(timeInterval: 45, target: self, selector: #selector(reloadTraffic), userInfo: nil, repeats: true)
    }

    @objc func reloadTraffic() {
        print("reload traffic")
    }

    deinit {
        refresh?.invalidate()
    }
}
