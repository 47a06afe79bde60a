// swift-format-ignore-file
import UIKit

final class SheetSlideAnimator {
    private let frameTimer = SheetFrameTimer()
    private var progress: CGFloat = 0

    func slideSheetIn(_ sheet: UIView) {
        frameTimer.startFrames { [weak self] in
            guard let self else { return }
            self.progress += 0.05
            sheet.alpha = self.progress
            if self.progress >= 1 {
                self.frameTimer.stopFrames()
            }
        }
    }
}
