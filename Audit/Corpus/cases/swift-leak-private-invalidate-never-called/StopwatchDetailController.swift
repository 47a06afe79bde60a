// swift-format-ignore-file
import UIKit

final class StopwatchDetailController: UIViewController {
    private var splitTimer: Timer?

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
    }

    @IBAction func startSplitsTapped(_ sender: UIButton) {
        if splitTimer == nil {
            splitTimer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(recordSplit), userInfo: nil, repeats: true)
        }
    }

    private func dropSplitTimer() {
        splitTimer?.invalidate()
        splitTimer = nil
    }

    @objc private func recordSplit() {
        print("split")
    }
}
