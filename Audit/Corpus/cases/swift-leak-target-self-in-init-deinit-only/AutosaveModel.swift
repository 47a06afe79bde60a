// swift-format-ignore-file
import Foundation

class AutosaveModel {
    var saveTimer: Timer?
    var edits = 0

    init() {
        saveTimer = Timer.scheduledTimer(
            timeInterval: 30.0,
            target: self,
            selector: #selector(persist(timer:)),
            userInfo: nil,
            repeats: true
        )
    }

    deinit {
        saveTimer?.invalidate()
    }

    @objc func persist(timer: Timer) {
        edits = 0
    }
}
