// swift-format-ignore-file
// Seed 001 in Swift: the polling class whose timer targets self, its block fix, and run-loop modes in a
// table view controller.
import UIKit

final class Poller {
    private var pollTimer: Timer?

    func startPolling() {
        pollTimer = Timer.scheduledTimer(timeInterval: 5.0, target: self, selector: #selector(doPoll), userInfo: nil, repeats: true)  // expect: timer-target-retain
    }

    func stopPolling() {
        pollTimer?.invalidate()
        pollTimer = nil
    }

    @objc private func doPoll() {}

    deinit {
        pollTimer?.invalidate()
    }
}

final class BlockPoller {
    private var pollTimer: Timer?

    func startPolling() {
        pollTimer = Timer.scheduledTimer(withTimeInterval: 5.0, repeats: true) { [weak self] _ in
            self?.doPoll()
        }
    }

    func startPollingNaively() {
        pollTimer = Timer.scheduledTimer(withTimeInterval: 5.0, repeats: true) { _ in
            self.doPoll()  // expect: block-timer-strong-self
        }
    }

    private func doPoll() {}

    deinit {
        pollTimer?.invalidate()  // expect: invalidate-only-in-deinit
    }
}

final class FeedViewController: UITableViewController {
    private var timer: Timer?

    func startDefaultOnly() {
        let timer = Timer(timeInterval: 1, repeats: true) { [weak self] _ in self?.refresh() }
        RunLoop.main.add(timer, forMode: .default)  // expect-note: default-mode-in-scroll-view
    }

    func startScheduled() {
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] _ in self?.refresh() }  // expect-note: default-mode-in-scroll-view
    }

    func startInBothModes() {
        let timer = Timer(timeInterval: 1, repeats: true) { [weak self] _ in self?.refresh() }
        RunLoop.main.add(timer, forMode: .default)
        RunLoop.main.add(timer, forMode: .tracking)
    }

    func startInCommonModes() {
        let timer = Timer(timeInterval: 1, repeats: true) { [weak self] _ in self?.refresh() }
        RunLoop.main.add(timer, forMode: .common)
    }

    func startOneShot() {
        Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in self.refresh() }
    }

    func refresh() {}

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        timer?.invalidate()
    }
}
