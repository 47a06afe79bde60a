// A stand-in for the few UIKit names that the seeds' examples (Audit/Tests/FixSeeds) and the corpus's fixed
// cases use, so that check-fixes.py can type-check them on Linux, which has no UIKit. It is compiled as a module
// named UIKit; only declarations, with UIKit's main-actor isolation (UIResponder and its subclasses are
// @MainActor), which decides whether TimerKitMigration's main-actor look-alikes may be called. Like UIKit, it
// re-exports Foundation. It also stands in for the little of Foundation's Objective-C API that those files use
// in code the fixes do not touch (Linux has no Objective-C runtime): `Selector`, which check-fixes.py writes for
// each `#selector(…)`, and the selector form of `NotificationCenter.addObserver`.
@_exported import Foundation

public struct Selector: Sendable {
    public init(_ name: String) {}
}

extension NotificationCenter {
    public func addObserver(_ observer: Any, selector: Selector, name: NSNotification.Name?, object: Any?) {}
}

@MainActor
open class UIResponder {
    public init() {}
}

public final class UIColor: Equatable, Sendable {
    public init() {}
    public static func == (lhs: UIColor, rhs: UIColor) -> Bool { lhs === rhs }
    public static let yellow = UIColor()
    public static let orange = UIColor()
}

@MainActor
open class UIView: UIResponder {
    open var backgroundColor: UIColor?
    open var isHidden = false
    open func addSubview(_ view: UIView) {}
}

@MainActor
open class UILabel: UIView {
    open var text: String?
}

@MainActor
open class UIViewController: UIResponder {
    open var view: UIView! = UIView()
    open func viewDidLoad() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
}

@MainActor
open class UIApplication: UIResponder {
    public static let didEnterBackgroundNotification = NSNotification.Name(
        "UIApplicationDidEnterBackgroundNotification")
    public static let willEnterForegroundNotification = NSNotification.Name(
        "UIApplicationWillEnterForegroundNotification")
}
