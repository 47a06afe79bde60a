// swift-format-ignore-file
import UIKit

final class AirQualityController: UIViewController {
    private var readingTimer: Timer?

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        readingTimer = Timer.scheduledTimer(timeInterval: 60, target: self, selector: #selector(pullReadings), userInfo: nil, repeats: true)
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        guard let t = self.readingTimer else { return }
        t.invalidate()
    }

    @objc private func pullReadings() {}
}
