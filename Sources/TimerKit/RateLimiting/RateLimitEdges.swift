/// Which edges of a burst (``Debouncer``) or of a window (``Throttler``) deliver a value.
///
/// An enum rather than an option set, so that "no edge at all" — a rate limiter that never delivers —
/// cannot be written.
public enum RateLimitEdges: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Deliver the value that starts a burst or opens a window, as soon as the context runs.
    case leading
    /// Deliver the latest value when a burst goes quiet or a window closes.
    case trailing
    /// Both: the first value at once, and the latest one at the end if another value came meanwhile.
    case leadingAndTrailing

    /// Whether the leading edge delivers.
    public var includesLeading: Bool { self != .trailing }

    /// Whether the trailing edge delivers.
    public var includesTrailing: Bool { self != .leading }

    /// A short human-readable description, for logs and test output.
    public var description: String { rawValue }
}
