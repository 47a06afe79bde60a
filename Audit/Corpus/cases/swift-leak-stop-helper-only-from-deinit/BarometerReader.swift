// swift-format-ignore-file
import Foundation

final class BarometerReader: NSObject {
    private var pressureTimer: Timer?
    var samples: [Double] = []

    func beginPressureSampling() {
        pressureTimer = Timer.scheduledTimer(timeInterval: 2, target: self, selector: #selector(samplePressure), userInfo: nil, repeats: true)
    }

    @objc private func samplePressure() {
        samples.append(1013)
    }

    private func tearDownPressureTimer() {
        pressureTimer?.invalidate()
        pressureTimer = nil
    }

    deinit {
        tearDownPressureTimer()
    }
}
