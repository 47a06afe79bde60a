// swift-format-ignore-file
// Targets that are not the owner, and a holder whose strong property keeps a timer that targets it.
import Foundation

final class Presenter: NSObject {
    @objc func refresh() {}
}

final class PollingHelper: NSObject {
    var timer: Timer?
    @objc func poll() {}
}

final class WeakPollingHelper: NSObject {
    weak var timer: Timer?
    @objc func poll() {}
}

final class Dashboard: NSObject {
    let presenter = Presenter()
    var timer: Timer?

    func startPresenter() {
        timer = Timer.scheduledTimer(timeInterval: 5, target: presenter, selector: #selector(Presenter.refresh), userInfo: nil, repeats: true)
    }

    func startHelper() {
        let helper = PollingHelper()
        helper.timer = Timer.scheduledTimer(timeInterval: 5, target: helper, selector: #selector(PollingHelper.poll), userInfo: nil, repeats: true)  // expect: timer-target-retain
    }

    func startWeakHelper() {
        let helper = WeakPollingHelper()
        helper.timer = Timer.scheduledTimer(timeInterval: 5, target: helper, selector: #selector(WeakPollingHelper.poll), userInfo: nil, repeats: true)
    }

    func startWithAlias() {
        let me = self
        timer = Timer.scheduledTimer(timeInterval: 5, target: me, selector: #selector(refresh), userInfo: nil, repeats: true)  // expect: timer-target-retain
    }

    func startOneShot() {
        Timer.scheduledTimer(timeInterval: 5, target: self, selector: #selector(refresh), userInfo: nil, repeats: false)
    }

    func strings() {
        let text = "Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(refresh), userInfo: nil, repeats: true)"
        // Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(refresh), userInfo: nil, repeats: true)
        print(text)
    }

    @objc func refresh() {}

    func stop() {
        timer?.invalidate()
    }
}
