// A model of the part of Apple's ObjectiveC module that TimerKit's Apple-only code uses, for the Linux
// type-check of that code (scripts/check-apple-paths.sh). Written from Apple's documentation, not copied
// from the SDK; it only has to type-check, never to run.

/// https://developer.apple.com/documentation/objectivec/selector
/// `#selector(…)` produces one on Apple platforms. Swift on Linux has no `#selector`: the check rewrites
/// `#selector(Type.method(_:))` to `Selector(Type.method(_:))`, which `init(_:)` below accepts for any
/// method reference, so the method must exist with that name and arity.
public struct Selector: ExpressibleByStringLiteral, Hashable, Sendable {
    /// A selector named by a string, as `Selector("step:")`.
    public init(stringLiteral value: String) {}
    /// The check's stand-in for `#selector(method)`.
    public init<Method>(_ method: Method) {}
}
