// swift-format-ignore-file
import UIKit

protocol MazeLoopDelegate: AnyObject {
    func mazeLoopUpdate()
}

class MazeLoop: NSObject {
    var link: CADisplayLink!
    weak var delegate: MazeLoopDelegate?

    @objc func tickUpdate() {
        delegate?.mazeLoopUpdate()
    }

    func begin() {
        link = CADisplayLink(target: self, selector: #selector(MazeLoop.tickUpdate))
        link.preferredFramesPerSecond = 60
        link.add(to: RunLoop.main, forMode: .common)
    }

    func end() {
        if link != nil {
            link.remove(from: RunLoop.main, forMode: .common)
        }
        link = nil
    }
}
