// A model of the part of Apple's QuartzCore (Core Animation) that TimerKit's Apple-only code uses, for the
// Linux type-check of that code (scripts/check-apple-paths.sh). Written from Apple's documentation pages
// named next to each declaration, not copied from the SDK; it only has to type-check, never to run.

@_exported import Foundation
@_exported import ObjectiveC

/// https://developer.apple.com/documentation/corefoundation/cftimeinterval
public typealias CFTimeInterval = Double

/// https://developer.apple.com/documentation/quartzcore/caframeraterange
public struct CAFrameRateRange: Sendable {
    /// https://developer.apple.com/documentation/quartzcore/caframeraterange/minimum
    public var minimum: Float
    /// https://developer.apple.com/documentation/quartzcore/caframeraterange/maximum
    public var maximum: Float
    /// https://developer.apple.com/documentation/quartzcore/caframeraterange/preferred-7l3ki
    public var preferred: Float?

    /// https://developer.apple.com/documentation/quartzcore/caframeraterange/init(minimum:maximum:preferred:)
    public init(minimum: Float, maximum: Float, preferred: Float? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.preferred = preferred
    }

    /// https://developer.apple.com/documentation/quartzcore/caframeraterange/default
    public static let `default` = CAFrameRateRange(minimum: 0, maximum: 0, preferred: 0)
}

/// https://developer.apple.com/documentation/quartzcore/cadisplaylink
/// Not Sendable (a main-thread object in practice), as in Apple's SDK.
open class CADisplayLink: NSObject {
    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/init(target:selector:)
    public init(target: Any, selector sel: Selector) { fatalError("model only") }

    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/add(to:formode:)
    open func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {}

    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/remove(from:formode:)
    open func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) {}

    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/invalidate()
    open func invalidate() {}

    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/timestamp
    open var timestamp: CFTimeInterval { 0 }

    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/targettimestamp
    open var targetTimestamp: CFTimeInterval { 0 }

    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/duration
    open var duration: CFTimeInterval { 0 }

    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/ispaused
    open var isPaused = false

    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/preferredframeraterange
    open var preferredFrameRateRange = CAFrameRateRange.default
}

/// https://developer.apple.com/documentation/quartzcore/cacurrentmediatime()
public func CACurrentMediaTime() -> CFTimeInterval { 0 }
