// swift-format-ignore-file
// Timer.publish split across lines or kept in a property, method references as the timer's block or the
// sink's receiveValue (they capture self), and UIScreen's display link factory; the weak versions stay quiet.
import Combine
import UIKit

final class ClockViewController: UIViewController {
    private var cancellables = Set<AnyCancellable>()
    private var now = Date()

    override func viewDidLoad() {
        super.viewDidLoad()
        Timer
            .publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .sink { date in
                self.now = date  // expect: block-timer-strong-self
            }
            .store(in: &cancellables)
    }
}

final class Ticker2 {
    private let publisher = Timer.publish(every: 1, on: .main, in: .common).autoconnect()
    private var cancellable: AnyCancellable?
    var count = 0

    func start() {
        cancellable = publisher.sink { _ in
            self.count += 1  // expect: block-timer-strong-self
        }
    }
}

final class Model {
    private var cancellables = Set<AnyCancellable>()

    func start() {
        Timer.publish(every: 1, on: .main, in: .common).autoconnect()
            .sink(receiveValue: update)  // expect: block-timer-strong-self
            .store(in: &cancellables)
    }

    private func update(_ date: Date) {}
}

final class Poller {
    private var timer: Timer?

    func start() {
        timer = Timer.scheduledTimer(withTimeInterval: 5, repeats: true, block: poll)  // expect: block-timer-strong-self
    }

    private func poll(_ timer: Timer) { print("poll") }
}

final class WaveView: UIView {
    private var link: CADisplayLink?

    func start() {
        link = UIScreen.main.displayLink(withTarget: self, selector: #selector(step))  // expect: display-link-target-retain
        link?.add(to: .main, forMode: .common)
    }

    @objc private func step(_ link: CADisplayLink) { setNeedsDisplay() }
}

final class QuietModel {
    private let publisher = Timer.publish(every: 1, on: .main, in: .common).autoconnect()
    private var cancellables = Set<AnyCancellable>()
    private var timer: Timer?
    var count = 0

    func start() {
        publisher
            .sink { [weak self] _ in self?.count += 1 }
            .store(in: &cancellables)
        let handler: (Timer) -> Void = { _ in print("tick") }
        timer = Timer.scheduledTimer(withTimeInterval: 5, repeats: true, block: handler)
        Timer.publish(every: 1, on: .main, in: .common).autoconnect()
            .sink(receiveValue: QuietModel.log)
            .store(in: &cancellables)
    }

    func stop() { timer?.invalidate() }

    static func log(_ date: Date) {}
}
