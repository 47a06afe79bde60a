// swift-format-ignore-file
import UIKit

final class MazeGameViewController: UIViewController, MazeLoopDelegate {
    let loop = MazeLoop()

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        loop.delegate = self
        loop.begin()
    }

    func mazeLoopUpdate() {
        view.setNeedsDisplay()
    }

    func playerReachedExit() {
        loop.end()
        dismiss(animated: true)
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        loop.end()
    }
}
