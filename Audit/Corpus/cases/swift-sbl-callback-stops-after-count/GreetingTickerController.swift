// swift-format-ignore-file
import UIKit

final class GreetingTickerController: UIViewController {
    var greetingTimer: Timer!
    var greetingsShown = 0

    override func viewDidLoad() {
        super.viewDidLoad()
        greetingTimer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(showGreeting), userInfo: nil, repeats: true)
    }

    @objc func showGreeting() {
        greetingsShown += 1
        if greetingsShown == 5 {
            greetingTimer.invalidate()
            greetingTimer = nil
        }
        print("hello")
    }
}
