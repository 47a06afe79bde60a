// swift-format-ignore-file
import Cocoa

class BarPreviewWindowController: NSWindowController, NSWindowDelegate {
    private var previewTimer: Timer?

    override func windowDidLoad() {
        super.windowDidLoad()
        window?.delegate = self
        if previewTimer == nil {
            previewTimer = Timer.scheduledTimer(withTimeInterval: 1.2, repeats: true) { _ in
                NotificationCenter.default.post(name: .init("BarPreviewPulse"), object: self)
            }
            RunLoop.current.add(previewTimer!, forMode: .eventTracking)
        }
    }

    func windowWillClose(_ notification: Notification) {
        previewTimer?.invalidate()
    }
}
