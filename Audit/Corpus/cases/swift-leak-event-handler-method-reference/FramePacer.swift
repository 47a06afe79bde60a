// swift-format-ignore-file
import Foundation

final class FramePacer {
    private let source: DispatchSourceTimer
    private(set) var frames = 0

    init(queue: DispatchQueue) {
        source = DispatchSource.makeTimerSource(queue: queue)
    }

    func start(fps: Int) {
        source.schedule(deadline: .now(), repeating: .milliseconds(1000 / fps), leeway: .milliseconds(1))
        source.setEventHandler(handler: drawFrame)
        source.resume()
    }

    private func drawFrame() {
        frames += 1
    }
}
