// swift-format-ignore-file
import UIKit

final class DealCountdownCell: UITableViewCell {
    var expires = Date()
    private var countdown: Timer?

    func startCountdown() {
        countdown?.invalidate()
        countdown = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(refreshRemaining), userInfo: nil, repeats: true)
    }

    func stopCountdown() {
        countdown?.invalidate()
        countdown = nil
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        stopCountdown()
    }

    @objc private func refreshRemaining() {
        detailTextLabel?.text = "\(Int(max(0, expires.timeIntervalSinceNow))) s"
    }
}
