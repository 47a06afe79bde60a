// swift-format-ignore-file
// Seed 000 in Swift: a repeating timer targeting the controller that keeps it, the weak property and
// weakSelf "fixes" that do not work, and deinit as the only place that stops it.
import UIKit

final class MainViewController: UIViewController {
    var timer: Timer?

    func fire() {
        timer = Timer.scheduledTimer(
            timeInterval: 1.0, target: self, selector: #selector(timeStart), userInfo: nil, repeats: true)  // expect: timer-target-retain
    }

    @objc func timeStart() {
        print("timeStart")
    }

    deinit {
        timer?.invalidate()  // expect: invalidate-only-in-deinit
    }
}

final class WeakPropertyViewController: UIViewController {
    weak var timer: Timer?

    func fire() {
        timer = Timer.scheduledTimer(timeInterval: 1.0, target: self, selector: #selector(timeStart), userInfo: nil, repeats: true)  // expect: weak-timer-property-no-fix
    }

    @objc func timeStart() {}

    func stop() {
        timer?.invalidate()
    }
}

final class WeakSelfTargetViewController: UIViewController {
    var timer: Timer?

    func fire() {
        weak var weakSelf = self
        timer = Timer.scheduledTimer(timeInterval: 1.0, target: weakSelf as Any, selector: #selector(timeStart), userInfo: nil, repeats: true)  // expect: weakself-as-target
    }

    @objc func timeStart() {}

    func stop() {
        timer?.invalidate()
    }
}

final class LifecycleViewController: UIViewController {
    var timer: Timer?

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        timer = Timer.scheduledTimer(timeInterval: 1.0, target: self, selector: #selector(timeStart), userInfo: nil, repeats: true)
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        timer?.invalidate()
    }

    @objc func timeStart() {}
}

// The shape of TimerKit's demo control case: the timer is made in a local and then kept in a property.
final class LocalThenStoredScreen {
    var timer: Timer?

    func viewDidAppear() {
        let timer = Timer(fire: Date(), interval: 1, repeats: true) { _ in
            self.timeStart()  // expect: block-timer-strong-self
        }
        RunLoop.current.add(timer, forMode: .default)
        self.timer = timer
    }

    func timeStart() {}

    deinit {
        timer?.invalidate()  // expect: invalidate-only-in-deinit
    }
}

final class LocalThenWeakScreen {
    weak var timer: Timer?

    func viewDidAppear() {
        let timer = Timer(fire: Date(), interval: 1, repeats: true) { _ in
            self.timeStart()  // expect: weak-timer-property-no-fix
        }
        RunLoop.current.add(timer, forMode: .default)
        self.timer = timer
    }

    func timeStart() {}
}
