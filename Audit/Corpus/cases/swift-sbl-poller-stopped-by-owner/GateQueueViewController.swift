// swift-format-ignore-file
import UIKit

final class GateQueueViewController: UIViewController {
    private var poller: GateQueuePoller?

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        poller = GateQueuePoller { [weak self] in
            self?.reloadQueue()
        }
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        poller?.stop()
        poller = nil
    }

    private func reloadQueue() {}
}
