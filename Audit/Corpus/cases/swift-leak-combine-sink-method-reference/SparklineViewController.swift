// swift-format-ignore-file
import Combine
import UIKit

final class SparklineViewController: UIViewController {
    private var cancellables = Set<AnyCancellable>()

    override func viewDidLoad() {
        super.viewDidLoad()
        Timer.publish(every: 0.5, on: .main, in: .common)
            .autoconnect()
            .map { $0.timeIntervalSince1970 }
            .sink(receiveValue: redraw)
            .store(in: &cancellables)
    }

    private func redraw(_ stamp: TimeInterval) {
        view.setNeedsDisplay()
    }
}
