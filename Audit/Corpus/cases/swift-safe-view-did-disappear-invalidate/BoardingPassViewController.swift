// swift-format-ignore-file
import UIKit

class BoardingPassViewController: UIViewController {
    var refreshTimer = Timer()

    override func viewDidLoad() {
        super.viewDidLoad()
        refreshTimer = Timer.scheduledTimer(timeInterval: 15, target: self, selector: #selector(self.refreshGate), userInfo: nil, repeats: true)
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        if refreshTimer.isValid {
            refreshTimer.invalidate()
        }
    }

    @objc func refreshGate() {
        print("refreshing gate")
    }
}
