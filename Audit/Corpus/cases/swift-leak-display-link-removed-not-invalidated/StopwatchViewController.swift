// swift-format-ignore-file
import UIKit

class StopwatchViewController: UIViewController {
    let clock = FrameClock()
    @IBOutlet weak var elapsedLabel: UILabel!

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        clock.onFrame = { [weak self] elapsed in
            self?.elapsedLabel.text = String(format: "%.2f", elapsed)
        }
        clock.start()
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        clock.release()
    }
}
