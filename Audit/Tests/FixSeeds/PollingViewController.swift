// swift-format-ignore-file
// Two leaking timers in one controller (seed 002's several timers): both fixes add the same
// `import TimerKitMigration`, which `--fix` writes once. The one-shot timer is not a leak and stays as it is.
import Foundation
import UIKit

final class PollingViewController: UIViewController {
    var pollTimer: Timer?
    var refreshTimer: Timer?
    var polls = 0

    override func viewDidLoad() {
        super.viewDidLoad()
        pollTimer = Timer.scheduledTimer(timeInterval: 5, target: self, selector: #selector(poll), userInfo: nil, repeats: true)
        refreshTimer = Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { timer in
            self.refresh()
        }
        Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in
            print("first poll due")
        }
    }

    @objc func poll() {
        polls += 1
    }

    func refresh() {
        polls = 0
    }
}
