// swift-format-ignore-file
// A stop in a responder method that UIKit or AppKit calls for the user's touch, click or key
// (touchesBegan(_:with:), mouseDown(with:)) counts as called, although nothing in the scan calls it: a note.
// A stop in an ordinary method that nothing calls is still a warning.
import UIKit

class TapToCloseScreen: UIViewController {
    var closeTimer: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        closeTimer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(closeTick), userInfo: nil, repeats: true)  // expect-note: timer-target-retain
    }

    @objc func closeTick() {}

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        closeTimer?.invalidate()
        dismiss(animated: true)
    }
}

class UnreachedStopScreen: UIViewController {
    var pollTimer: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        pollTimer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(poll), userInfo: nil, repeats: true)  // expect: timer-target-retain
    }

    @objc func poll() {}

    func finishPolling() {
        pollTimer?.invalidate()
    }
}
