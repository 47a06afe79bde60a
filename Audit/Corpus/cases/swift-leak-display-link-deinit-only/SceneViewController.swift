// swift-format-ignore-file
import UIKit

final class SceneViewController: UIViewController {

    var frameLink: CADisplayLink!

    lazy var canvas: SceneCanvas = {
        SceneCanvas(size: UIScreen.main.bounds.size)
    }()

    override func loadView() {
        view = canvas.view
        installFrameLink()
    }

    deinit {
        tearDownFrameLink()
    }
}

extension SceneViewController {

    func installFrameLink() {
        frameLink = CADisplayLink(target: self, selector: #selector(drawNextFrame))
        frameLink.preferredFramesPerSecond = 60
        frameLink.add(to: RunLoop.main, forMode: .default)
    }

    func tearDownFrameLink() {
        frameLink.invalidate()
        frameLink = nil
    }

    @objc func drawNextFrame() {
        canvas.render()
    }
}
