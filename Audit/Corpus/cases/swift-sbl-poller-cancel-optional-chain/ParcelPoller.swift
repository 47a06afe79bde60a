// swift-format-ignore-file
import Foundation

final class ParcelPoller: NSObject {
    private var parcelTimer: Timer?
    var onStatus: ((String) -> Void)?

    func watchParcel() {
        parcelTimer = Timer.scheduledTimer(timeInterval: 20, target: self, selector: #selector(askCarrier), userInfo: nil, repeats: true)
    }

    @objc private func askCarrier() {
        onStatus?("in transit")
    }

    func cancel() {
        parcelTimer?.invalidate()
        parcelTimer = nil
    }
}
