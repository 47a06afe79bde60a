// swift-format-ignore-file
import UIKit

open class LoopingFrameView: UIView
{
    weak var frameLink: CADisplayLink?
    var frameImages: [UIImage] = []

    public init()
    {
        super.init(frame: CGRect.zero)
        isUserInteractionEnabled = false
    }

    required public init?(coder: NSCoder)
    {
        return nil
    }

    deinit
    {
        frameLink?.invalidate()
    }
}
