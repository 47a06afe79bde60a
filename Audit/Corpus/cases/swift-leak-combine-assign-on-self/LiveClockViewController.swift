// swift-format-ignore-file
import Combine
import UIKit

final class LiveClockViewController: UIViewController {

    private var subscriptions = Set<AnyCancellable>()
    @objc dynamic var currentTime = Date()

    override func viewDidLoad() {
        super.viewDidLoad()
        Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .assign(to: \.currentTime, on: self)
            .store(in: &subscriptions)
    }
}
