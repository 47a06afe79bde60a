// swift-format-ignore-file
// Severity follows the life cycle: a warning only when nothing but deinit (or nothing at all) stops the
// timer; a note naming the method when another method, called somewhere, stops it; nothing when a
// life-cycle method stops it or the owner lives for the whole process.
import UIKit
import AppKit

final class Spinner {
    private var link: CADisplayLink?

    func startSpinning() {
        link = CADisplayLink(target: self, selector: #selector(step))  // expect-note: display-link-target-retain
        link?.add(to: .main, forMode: .common)
    }

    func stopSpinning() {
        link?.invalidate()
        link = nil
    }

    func reset() {
        stopSpinning()
    }

    @objc private func step() {}
}

// The stop method exists but nothing calls it: a warning.
final class Heartbeat {
    private var timer: Timer?

    func begin() {
        timer = Timer.scheduledTimer(timeInterval: 10, target: self, selector: #selector(beat), userInfo: nil, repeats: true)  // expect: timer-target-retain
    }

    func end() {
        timer?.invalidate()
    }

    @objc private func beat() {}
}

// A view stopped when it leaves its superview or window.
final class MarqueeView: UIView {
    private var timer: Timer?
    private var link: CADisplayLink?

    func scroll() {
        timer = Timer.scheduledTimer(withTimeInterval: 0.05, repeats: true) { _ in self.setNeedsDisplay() }
        link = CADisplayLink(target: self, selector: #selector(advanceFrame))
    }

    override func didMoveToSuperview() {
        super.didMoveToSuperview()
        if superview == nil { timer?.invalidate() }
    }

    override func willMove(toWindow newWindow: UIWindow?) {
        if newWindow == nil { link?.invalidate() }
    }

    @objc private func advanceFrame() {}
}

// AppKit: a view controller and a window controller.
final class StatusViewController: NSViewController {
    private var timer: Timer?

    override func viewDidAppear() {
        super.viewDidAppear()
        timer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(refresh), userInfo: nil, repeats: true)
    }

    override func viewDidDisappear() {
        super.viewDidDisappear()
        timer?.invalidate()
    }

    @objc private func refresh() {}
}

final class InspectorWindowController: NSWindowController, NSWindowDelegate {
    private var timer: Timer?

    func watch() {
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in self.window?.update() }
    }

    func windowWillClose(_ notification: Notification) {
        timer?.invalidate()
    }
}

// A property observer that invalidates the old timer: `timer = nil` stops it.
final class AutoSaver {
    private var timer: Timer? {
        didSet { oldValue?.invalidate() }
    }

    func schedule() {
        timer = Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { _ in self.save() }  // expect-note: block-timer-strong-self
    }

    func finish() {
        timer = nil
    }

    private func save() {}
}

// Stopped by its own callback when the work is done.
final class Countdown {
    private var remaining = 10
    private var timer: Timer?
    private var fallback: Timer?

    func start() {
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { timer in
            self.remaining -= 1  // expect-note: block-timer-strong-self
            if self.remaining == 0 { timer.invalidate() }
        }
        fallback = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(tick(_:)), userInfo: nil, repeats: true)  // expect-note: timer-target-retain
    }

    @objc private func tick(_ timer: Timer) {
        remaining -= 1
        if remaining <= 0 { timer.invalidate() }
    }
}

// Owners that live for the whole process: the cycle leaks nothing.
final class SyncClock {
    static let shared = SyncClock()
    private var timer: Timer?

    private init() {
        timer = Timer.scheduledTimer(timeInterval: 60, target: self, selector: #selector(sync), userInfo: nil, repeats: true)
    }

    @objc private func sync() {}
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    private var timer: Timer?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        timer = Timer.scheduledTimer(withTimeInterval: 300, repeats: true) { _ in self.refreshBadge() }
        return true
    }

    private func refreshBadge() {}
}

// A shared instance made on first use is a singleton too.
final class MessagePoller: NSObject {
    static var instance: MessagePoller?
    var timer: Timer?

    class func shared() -> MessagePoller {
        if instance == nil { instance = MessagePoller() }
        return instance!
    }

    func start() {
        timer = Timer.scheduledTimer(timeInterval: 60, target: self, selector: #selector(poll), userInfo: nil, repeats: true)
    }

    @objc func poll() {}
}

// Removing a display link from the run loop stops the cycle only when the link is also let go.
final class FrameClock {
    private var link: CADisplayLink?
    private var wrapperLink: CADisplayLink?

    func start() {
        link = CADisplayLink(target: self, selector: #selector(frame))  // expect-note: display-link-target-retain
        wrapperLink = CADisplayLink(target: self, selector: #selector(frame))  // expect: display-link-target-retain
    }

    func release() {
        link?.remove(from: .main, forMode: .common)
        link = nil
        wrapperLink?.remove(from: .main, forMode: .common)
    }

    func shutDown() {
        release()
    }

    @objc private func frame() {}
}

// Invalidating the previous timer just before making the next one never stops the new one; a branch that
// stops it instead of making one does.
final class Refresher2 {
    private var timer: Timer?
    private var toggled: Timer?

    func restart() {
        timer?.invalidate()
        timer = Timer.scheduledTimer(timeInterval: 5, target: self, selector: #selector(refresh), userInfo: nil, repeats: true)  // expect: timer-target-retain
    }

    func toggle() {
        if toggled != nil {
            toggled?.invalidate()
            toggled = nil
        } else {
            toggled = Timer.scheduledTimer(timeInterval: 5, target: self, selector: #selector(refresh), userInfo: nil, repeats: true)  // expect-note: timer-target-retain
        }
    }

    func buttonTapped() {
        toggle()
    }

    @objc private func refresh() {}
}

// Methods reached by the frameworks: an @IBAction, a selector given to a button or a notification, and a set
// of subscriptions emptied by a method something calls.
final class PlayerViewController: UIViewController {
    private var timer: Timer?
    private var progress: Timer?
    private var cancellables = Set<AnyCancellable>()

    func play() {
        timer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(advance), userInfo: nil, repeats: true)  // expect-note: timer-target-retain
        progress = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(advance), userInfo: nil, repeats: true)  // expect-note: timer-target-retain
        Timer.publish(every: 1, on: .main, in: .common).autoconnect()
            .sink { _ in self.advance() }  // expect-note: block-timer-strong-self
            .store(in: &cancellables)
        NotificationCenter.default.addObserver(self, selector: #selector(stopProgress), name: .playerDidEnd, object: nil)
    }

    @IBAction func pause(_ sender: Any) {
        timer?.invalidate()
        cancellables.removeAll()
    }

    @objc private func stopProgress() {
        progress?.invalidate()
    }

    @objc private func advance() {}
}
