// swift-format-ignore-file
import UIKit

final class BlockGameController: UIViewController {
    var dropTimer: BlockDropTimer!

    override func viewDidLoad() {
        super.viewDidLoad()
        dropTimer = BlockDropTimer(target: self, selector: #selector(dropStep))
        dropTimer.resumeDrops()
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        dropTimer.pauseDrops()
    }

    @objc func dropStep() {}
}
