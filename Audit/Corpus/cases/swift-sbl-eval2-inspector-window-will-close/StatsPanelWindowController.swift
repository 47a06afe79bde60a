// swift-format-ignore-file
import Cocoa

class StatsPanelWindowController: NSWindowController, NSWindowDelegate {
  var statsTimer: Timer?
  var statsObservers: [NSObjectProtocol] = []

  override func showWindow(_ sender: Any?) {
    guard let _ = self.window else { return }
    refreshStats()
    dropStatsTimer()
    statsTimer = Timer.scheduledTimer(timeInterval: TimeInterval(1), target: self, selector: #selector(refreshStats), userInfo: nil, repeats: true)
    statsObservers.append(NotificationCenter.default.addObserver(forName: .init("statsSourceChanged"), object: nil, queue: .main) { [weak self] _ in
      self?.refreshStats()
    })
    super.showWindow(sender)
  }

  func windowWillClose(_ notification: Notification) {
    dropStatsTimer()
  }

  private func dropStatsTimer() {
    statsTimer?.invalidate()
    statsTimer = nil
    for observer in statsObservers {
      NotificationCenter.default.removeObserver(observer)
    }
    statsObservers = []
  }

  @objc func refreshStats() {
    window?.title = "Stats"
  }
}
