// swift-format-ignore-file
import UIKit

final class NetworkBadgeViewController: UIViewController {
    var reachabilityTimer: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        DispatchQueue.main.async { [weak self] in
            self?.reachabilityTimer = Timer.scheduledTimer(withTimeInterval: 5, repeats: true) { _ in
                self?.view.setNeedsLayout()
            }
        }
    }

    deinit {
        reachabilityTimer?.invalidate()
    }
}
