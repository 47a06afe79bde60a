// swift-format-ignore-file
import UIKit

extension LoopingFrameView
{
    override open func removeFromSuperview()
    {
        super.removeFromSuperview()
        frameLink?.invalidate()
    }
}
