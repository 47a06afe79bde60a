// swift-format-ignore-file
import UIKit

class FadeTransition: NSObject, FadeProgressRunnerDelegate {
  lazy var fadeRunner: FadeProgressRunner = {
    let runner = FadeProgressRunner()
    runner.delegate = self
    return runner
  }()

  func finishFade(animate: Bool, duration: TimeInterval) {
    fadeRunner.run(from: 0, total: duration, backwards: !animate)
  }

  func wrapUpFade() {
    fadeRunner.haltFade()
  }

  func fadeProgressed(_ fraction: Double) {}

  func fadeEnded(finished: Bool) {
    wrapUpFade()
  }
}
