// swift-format-ignore-file
import Cocoa

class MarqueeTitleField: NSTextField {
  private var marqueeTimer: Timer?
  private var delayTimer: Timer?
  private var marqueeOffset: CGFloat = 0
  private var loopWidth: CGFloat = 0
  private var idle = true

  override var stringValue: String {
    didSet {
      resetMarquee()
    }
  }

  func startMarquee() {
    guard idle && attributedStringValue.size().width > bounds.width else { return }
    idle = false
    delayTimer = Timer.scheduledTimer(timeInterval: 0.2, target: self, selector: #selector(beginMarqueeScroll),
                                      userInfo: nil, repeats: false)
  }

  @objc
  private func beginMarqueeScroll() {
    loopWidth = attributedStringValue.size().width + 20
    marqueeTimer = Timer.scheduledTimer(timeInterval: 0.03, target: self, selector: #selector(stepMarquee),
                                        userInfo: nil, repeats: true)
  }

  private func resetMarquee() {
    marqueeTimer?.invalidate()
    marqueeTimer = nil
    delayTimer?.invalidate()
    delayTimer = nil
    marqueeOffset = 0
    idle = true
    needsDisplay = true
  }

  @objc
  private func stepMarquee() {
    marqueeOffset -= 1
    if marqueeOffset + loopWidth < 0 {
      resetMarquee()
      return
    }
    needsDisplay = true
  }
}
