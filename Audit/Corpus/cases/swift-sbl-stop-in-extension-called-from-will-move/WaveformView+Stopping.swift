// swift-format-ignore-file
import UIKit

extension WaveformView {
    func endSweep() {
        sweepLink?.invalidate()
        sweepLink = nil
    }
}
