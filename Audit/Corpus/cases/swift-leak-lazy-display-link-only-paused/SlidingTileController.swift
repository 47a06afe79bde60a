// swift-format-ignore-file
import UIKit

final class SlidingTileController: UIViewController {
    let tile = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))

    lazy var tileLink: CADisplayLink = {
        let link = CADisplayLink(target: self, selector: #selector(slideTile(link:)))
        link.preferredFramesPerSecond = 60
        link.add(to: .main, forMode: .common)
        return link
    }()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(tile)
        _ = tileLink
    }

    @objc func slideTile(link: CADisplayLink) {
        guard view.frame.intersects(tile.frame) else {
            tileLink.isPaused = true
            return
        }
        tile.center.x += 1
    }
}
