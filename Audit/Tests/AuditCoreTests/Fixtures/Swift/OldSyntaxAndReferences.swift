// swift-format-ignore-file
// Swift 2 and 3 spellings, method references as handlers, and one-shot timers that re-arm themselves.
import Foundation
import QuartzCore

final class LegacyPoller: NSObject {
    var timer: NSTimer?
    var source: dispatch_source_t?

    func start() {
        timer = NSTimer.scheduledTimerWithTimeInterval(1, target: self, selector: "poll", userInfo: nil, repeats: true)  // expect: timer-target-retain
        dispatch_source_set_event_handler(source) {  // closes below
            self.poll()  // expect: block-timer-strong-self
        }
        dispatch_resume(source)
    }

    func poll() {}
}

final class LegacyOneShot: NSObject {
    var timer: NSTimer?

    func start() {
        timer = NSTimer(timeInterval: 2, target: self, selector: Selector("poll"), userInfo: nil, repeats: false)
    }

    func poll() {}
}

final class Renderer {
    private let source = DispatchSource.makeTimerSource(queue: .main)
    private let weakSource = DispatchSource.makeTimerSource(queue: .main)

    func run() {
        source.setEventHandler(handler: drawFrame)  // expect: block-timer-strong-self
        source.resume()
        weakSource.setEventHandler { [weak self] in self?.drawFrame() }
        weakSource.resume()
    }

    private func drawFrame() {}
}

// One-shot timers with target: self that their own callback schedules again: repeating in effect.
final class Refresher: NSObject {
    func scheduleNext() {
        Timer.scheduledTimer(timeInterval: 5, target: self, selector: #selector(refresh), userInfo: nil, repeats: false)  // expect: timer-target-retain
    }

    @objc func refresh() {
        scheduleNext()
    }

    func loop() {
        Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in  // closes below
            self.loop()  // expect: block-timer-strong-self
        }
    }

    func delayOnce() {
        Timer.scheduledTimer(timeInterval: 5, target: self, selector: #selector(done), userInfo: nil, repeats: false)
        Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in self.done() }
    }

    @objc func done() {}
}

// A project type that only looks like a display link: it holds its target weakly.
final class FrameLink {
    weak var receiver: AnyObject?

    static func displayLink(withTarget target: AnyObject, selector: Selector) -> FrameLink {
        let link = FrameLink()
        link.receiver = target
        return link
    }
}

final class FPSLabel {
    private var link: FrameLink?

    func start() {
        link = FrameLink.displayLink(withTarget: self, selector: #selector(tick))
    }

    @objc private func tick() {}
}
