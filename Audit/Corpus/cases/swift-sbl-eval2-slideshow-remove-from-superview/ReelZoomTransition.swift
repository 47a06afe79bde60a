// swift-format-ignore-file
import UIKit

class ReelZoomTransition: NSObject {
    weak var sourceReel: SlideRollView?

    func zoomIn() {
        sourceReel?.holdReel()
    }

    func zoomOut() {
        sourceReel?.resumeReel()
    }
}
