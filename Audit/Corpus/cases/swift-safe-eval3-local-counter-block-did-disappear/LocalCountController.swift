// swift-format-ignore-file
import UIKit

class LocalCountController: UIViewController {

    var localCountTimer: Timer!

    override func viewDidLoad() {
        super.viewDidLoad()
        self.view.backgroundColor = .white

        var localCount = 0
        localCountTimer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { (timer) in
            localCount += 1
            print(localCount)
        }
        localCountTimer.fire()
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        localCountTimer?.invalidate()
        localCountTimer = nil
    }
}
