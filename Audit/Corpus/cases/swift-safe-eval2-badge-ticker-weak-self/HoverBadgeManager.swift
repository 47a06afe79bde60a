// swift-format-ignore-file
import Cocoa

class HoverBadgeManager {
    static let pollInterval: TimeInterval = 0.1
    private var hoverTimer: Timer?
    private var lastPointer = NSPoint.zero
    var badgeEnabled = true

    init() {
        NotificationCenter.default.addObserver(forName: .init("badgeSettingChanged"), object: nil, queue: .main) { [weak self] _ in
            self?.toggleHoverPolling()
        }
        toggleHoverPolling()
    }

    private func toggleHoverPolling() {
        if badgeEnabled {
            guard hoverTimer == nil else { return }
            let timer = Timer.scheduledTimer(withTimeInterval: Self.pollInterval, repeats: true) { [weak self] _ in
                self?.pollPointer()
            }
            timer.tolerance = 0.05
            self.hoverTimer = timer
        } else {
            hoverTimer?.invalidate()
            hoverTimer = nil
        }
    }

    private func pollPointer() {
        lastPointer = NSEvent.mouseLocation
    }
}
