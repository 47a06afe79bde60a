// swift-format-ignore-file
import UIKit

final class InboxBadgeViewController: UIViewController {

    private var badgeTimer: Timer?

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        badgeTimer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(refreshBadge), userInfo: nil, repeats: true)
    }

    @objc private func refreshBadge() {
        print("badge refresh")
    }

    deinit {
        print("inbox badge gone")
    }
}
