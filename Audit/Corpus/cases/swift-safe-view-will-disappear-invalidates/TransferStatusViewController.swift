// swift-format-ignore-file
import UIKit

final class TransferStatusViewController: UIViewController {
    private var statusTimer: Timer?

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        statusTimer = Timer.scheduledTimer(timeInterval: 2, target: self, selector: #selector(checkTransfer), userInfo: nil, repeats: true)
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        statusTimer?.invalidate()
        statusTimer = nil
    }

    @objc private func checkTransfer() {
        print("checking transfer")
    }
}
