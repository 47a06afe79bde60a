// swift-format-ignore-file
import Cocoa

class DownloadsPanelController: NSViewController {
    var progressTimer: Timer?

    override func viewWillAppear() {
        super.viewWillAppear()
        progressTimer = Timer.scheduledTimer(timeInterval: 0.5, target: self, selector: #selector(refreshProgress), userInfo: nil, repeats: true)
    }

    override func viewWillDisappear() {
        super.viewWillDisappear()
        progressTimer?.invalidate()
        progressTimer = nil
    }

    @objc func refreshProgress() {
        view.needsDisplay = true
    }
}
