// swift-format-ignore-file
import UIKit

class WeakEchoController: UIViewController {

    override func viewDidLoad() {
        super.viewDidLoad()
        Timer.scheduledTimer(withTimeInterval: 2, repeats: true, block: { [weak self] _ in
            self?.echoWeakly()
        })
    }

    private func echoWeakly() {
        print("weak echo")
    }

    deinit {
        print("WeakEchoController is deallocated.")
    }
}
