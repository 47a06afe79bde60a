// swift-format-ignore-file
import UIKit

final class LiveScoreController: UIViewController {
    private var scoreTimer: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        NotificationCenter.default.addObserver(self, selector: #selector(applicationDidEnterBackground), name: UIApplication.didEnterBackgroundNotification, object: nil)
        NotificationCenter.default.addObserver(self, selector: #selector(applicationWillEnterForeground), name: UIApplication.willEnterForegroundNotification, object: nil)
        startScorePolling()
    }

    private func startScorePolling() {
        scoreTimer = Timer.scheduledTimer(timeInterval: 10, target: self, selector: #selector(refreshScores), userInfo: nil, repeats: true)
    }

    @objc func applicationDidEnterBackground() {
        scoreTimer?.invalidate()
        scoreTimer = nil
    }

    @objc func applicationWillEnterForeground() {
        startScorePolling()
    }

    @objc private func refreshScores() {}
}
