// swift-format-ignore-file
import Foundation

final class UploadMonitor {
    private var statusTimer: Timer?
    var lastError: Error?
    var progress = 0.0

    func watchUpload() {
        statusTimer = Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { timer in
            self.progress += 0.1
            if let failure = self.lastError {
                print(failure)
                timer.invalidate()
            }
        }
    }
}
