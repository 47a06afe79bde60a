// swift-format-ignore-file
// Block timers in Swift: strong captures, the weak/strong dance done wrong and right, and closures whose
// self is not an object.
import Foundation

final class Stopwatch {
    var timer: Timer?
    var seconds = 0

    func startCapturingSelf() {
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
            self.seconds += 1  // expect: block-timer-strong-self
        }
    }

    func startWithSelfCaptureList() {
        timer = Timer(timeInterval: 1, repeats: true) { [self] _ in  // expect: block-timer-strong-self
            seconds += 1
        }
    }

    func startStrongifiedOutside() {
        weak var weakSelf = self
        guard let strongSelf = weakSelf else { return }
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
            strongSelf.seconds += 1  // expect: strongself-escapes
        }
    }

    func startFromWeakClosure() {
        DispatchQueue.main.async { [weak self] in
            guard let self else { return }
            self.timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
                self.seconds += 1  // expect: strongself-escapes
            }
        }
    }

    func startFromWeakClosureWithName() {
        DispatchQueue.main.async { [weak self] in
            guard let strong = self else { return }
            strong.timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
                strong.seconds += 1  // expect: strongself-escapes
            }
        }
    }

    func startWithNestedWeakCapture() {
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
            DispatchQueue.main.async { [weak self] in  // expect: block-timer-strong-self
                self?.seconds += 1
            }
        }
    }

    func startCorrectly() {
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] timer in
            guard let self else {
                timer.invalidate()
                return
            }
            self.seconds += 1
            DispatchQueue.main.async {
                self.seconds += 0
            }
        }
    }

    func startUnowned() {
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [unowned self] _ in
            self.seconds += 1
        }
    }

    func startWeakAlias() {
        weak var weakSelf = self
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
            guard let strongSelf = weakSelf else { return }
            strongSelf.seconds += 1
        }
    }

    func startOneShot() {
        Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in
            self.seconds = 0
        }
    }

    func startWithMetatype() {
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
            print(Stopwatch.self)
        }
    }

    func startUnknownRepeats(_ repeats: Bool) {
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: repeats) { _ in
            self.seconds += 1  // expect: block-timer-strong-self
        }
    }

    func stop() {
        timer?.invalidate()
    }

    static func shared() -> Timer {
        Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(classTick), userInfo: nil, repeats: true)
    }

    @objc static func classTick() {}
}

struct Countdown {
    var remaining = 10

    func start() -> Timer {
        Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
            print(self.remaining)
        }
    }
}

let topLevelTimer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
    print("tick")
}
