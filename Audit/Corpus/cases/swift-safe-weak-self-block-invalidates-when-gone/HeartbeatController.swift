// swift-format-ignore-file
import UIKit

final class HeartbeatController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        scheduleHeartbeat()
    }

    private func scheduleHeartbeat() {
        Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] beat in
            guard let self = self else {
                beat.invalidate()
                return
            }
            self.logHeartbeat()
        }
    }

    private func logHeartbeat() {
        print("beat")
    }
}
