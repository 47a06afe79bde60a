// swift-format-ignore-file
// The classic target–action leak (seed 000's MainViewController in Swift): a repeating timer with `target: self`,
// kept in a view controller's property, invalidated only in deinit, which cannot run while the timer retains
// the controller. `timerkit-audit --fix` moves it to TimerKitMigration's look-alike, which holds the target
// weakly and returns a `Ticker`.
import UIKit

final class CountdownViewController: UIViewController {
    var timer: Timer?
    var remaining = 60

    override func viewDidLoad() {
        super.viewDidLoad()
        timer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(tick), userInfo: nil, repeats: true)
    }

    @objc func tick() {
        remaining -= 1
    }

    deinit {
        timer?.invalidate()
    }
}
