// swift-format-ignore-file
import UIKit

protocol FadeProgressRunnerDelegate: AnyObject {
  func fadeProgressed(_ fraction: Double)
  func fadeEnded(finished: Bool)
}

class FadeProgressRunner {
  weak var delegate: FadeProgressRunnerDelegate?
  var elapsed: TimeInterval = 0
  var total: TimeInterval = 0
  var backwards = false

  var frameLink: CADisplayLink?

  @objc func fadeFrame(_ link: CADisplayLink) {
    elapsed += backwards ? -link.duration : link.duration
    if backwards, elapsed <= 0 {
      delegate?.fadeEnded(finished: false)
      haltFade()
      return
    }
    if !backwards, elapsed >= total {
      delegate?.fadeEnded(finished: true)
      haltFade()
      return
    }
    delegate?.fadeProgressed(elapsed / total)
  }

  func run(from start: TimeInterval, total: TimeInterval, backwards: Bool) {
    haltFade()
    elapsed = start
    self.total = total
    self.backwards = backwards
    frameLink = CADisplayLink(target: self, selector: #selector(fadeFrame(_:)))
    frameLink!.add(to: .main, forMode: RunLoop.Mode.common)
  }

  func haltFade() {
    frameLink?.isPaused = true
    frameLink?.remove(from: RunLoop.main, forMode: RunLoop.Mode.common)
    frameLink = nil
  }
}
