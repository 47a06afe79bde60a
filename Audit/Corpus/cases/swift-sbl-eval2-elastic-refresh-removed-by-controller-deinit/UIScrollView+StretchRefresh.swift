// swift-format-ignore-file
import UIKit
import ObjectiveC

private var stretchViewKey = 0

public extension UIScrollView {
    fileprivate var stretchView: StretchRefreshView? {
        get { return objc_getAssociatedObject(self, &stretchViewKey) as? StretchRefreshView }
        set { objc_setAssociatedObject(self, &stretchViewKey, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC) }
    }

    func addStretchRefresh(_ handler: @escaping () -> Void) {
        let view = StretchRefreshView()
        view.pullHandler = handler
        stretchView = view
        addSubview(view)
    }

    func removeStretchRefresh() {
        stretchView?.detachWaveLink()
        stretchView?.removeFromSuperview()
    }
}
