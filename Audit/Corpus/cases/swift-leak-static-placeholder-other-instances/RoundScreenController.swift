// swift-format-ignore-file
import UIKit

final class RoundScreenController: UIViewController {
    private let roundClock = RoundClockModel()

    override func viewDidLoad() {
        super.viewDidLoad()
        roundClock.beginRound()
    }
}
