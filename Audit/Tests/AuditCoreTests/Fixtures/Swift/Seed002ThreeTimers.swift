// swift-format-ignore-file
// Seed 002 in Swift: Timer, DispatchSourceTimer and CADisplayLink, with a forwarding weak wrapper.
import Foundation
import QuartzCore

final class WeakWrapper: NSObject {
    weak var object: NSObjectProtocol?

    init(_ object: NSObjectProtocol) {
        self.object = object
    }

    override func forwardingTarget(for aSelector: Selector!) -> Any? {
        object
    }
}

final class TimerGallery: NSObject {
    var timer1: Timer?
    var timer2: Timer?
    var displayLink: CADisplayLink?
    var source: DispatchSourceTimer?

    func createTimers() {
        timer1 = Timer(timeInterval: 3, target: self, selector: #selector(tick), userInfo: nil, repeats: true)  // expect: timer-target-retain
        timer2 = Timer.scheduledTimer(timeInterval: 3, target: self, selector: #selector(tick), userInfo: nil, repeats: true)  // expect: timer-target-retain
        displayLink = CADisplayLink(target: WeakWrapper(self), selector: #selector(step))
        displayLink?.add(to: .main, forMode: .default)

        let queue = DispatchQueue.global()
        source = DispatchSource.makeTimerSource(queue: queue)
        source?.schedule(deadline: .now(), repeating: 3.0)
        source?.setEventHandler { [weak self] in
            self?.tick()
        }
        source?.resume()
    }

    func createLeakingLink() {
        displayLink = CADisplayLink(target: self, selector: #selector(step))  // expect: display-link-target-retain
    }

    func createLeakingSource() {
        source = DispatchSource.makeTimerSource(queue: .main)
        source?.setEventHandler {
            self.tick()  // expect: block-timer-strong-self
        }
        source?.resume()
        source?.resume()  // expect: dispatch-source-double-resume
    }

    func createLocalSource() {
        let local = DispatchSource.makeTimerSource(queue: .main)
        local.setEventHandler { self.tick() }
        local.resume()
    }

    func createSourceStoredLater() {
        let made = DispatchSource.makeTimerSource(queue: .main)
        made.setEventHandler {
            self.tick()  // expect: block-timer-strong-self
        }
        made.resume()
        source = made
    }

    func pauseAndDrop() {
        source?.suspend()
        source?.cancel()
        source = nil  // expect: dispatch-source-suspended-release
    }

    func pauseResumeAndDrop() {
        source?.suspend()
        source?.resume()
        source?.cancel()
        source = nil
    }

    func destroyTimers() {
        timer1?.invalidate()
        timer2?.invalidate()
        displayLink?.invalidate()
        source?.cancel()
    }

    @objc func tick() {}
    @objc func step() {}
}
