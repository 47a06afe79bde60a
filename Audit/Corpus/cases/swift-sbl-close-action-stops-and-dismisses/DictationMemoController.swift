// swift-format-ignore-file
import UIKit

final class DictationMemoController: UIViewController {
    private var levelTimer: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        levelTimer = Timer.scheduledTimer(timeInterval: 0.1, target: self, selector: #selector(meterVoiceLevel), userInfo: nil, repeats: true)
    }

    @IBAction func closeMemoTapped(_ sender: UIButton) {
        finishMemoRecording()
        dismiss(animated: true)
    }

    private func finishMemoRecording() {
        levelTimer?.invalidate()
        levelTimer = nil
    }

    @objc private func meterVoiceLevel() {}
}
