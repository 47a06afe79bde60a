import Foundation

/// The clock a ticker counts its deadlines on, and a way to read "now" on TimerKit's timeline.
///
/// - ``uptime`` (the default for every schedule) stops while the device sleeps, like `Foundation.Timer`
///   and `DispatchTime`: a ticker due in 60 s that spends 10 s of them in a sleeping device fires 70 s of
///   wall time after it started. Right for animations, polling and anything that only matters while the
///   program runs.
/// - ``continuous`` keeps counting while the device sleeps (`CLOCK_BOOTTIME` on Linux, continuous time on
///   Apple platforms): right for deadlines tied to the outside world, such as "resend in 60 s" imposed by
///   a server, or the expiry of a one-time code. Nothing runs while the device sleeps; a deadline that
///   passed meanwhile is delivered after it wakes, within about a second (the system timers TimerKit
///   waits on count uptime, so a continuous-clock context never waits longer than a second at a time).
///
/// Use a clock with ``TickSchedule``'s `clock:` parameter. Its ``now`` reads the same timeline the
/// tickers on it use — under virtual time (`TimerKitTesting.VirtualTime`), the virtual instant, so
/// timestamps taken with it (a stopwatch's laps, say) line up with ``Tick/deadline`` and
/// ``Tick/timestamp`` in tests as in production. Virtual time has one timeline for both clocks.
///
/// `TickClock` is a `Clock`: `try await TickClock.continuous.sleep(for: .seconds(5))` waits on TimerKit's
/// engine (and on virtual time in tests). Instants of the two clocks are not comparable with each other.
public struct TickClock: Clock, Sendable, Hashable, CustomStringConvertible {
    /// A point on the clock's timeline, in nanoseconds.
    public typealias Instant = TickInstant
    /// The standard library's `Duration`.
    public typealias Duration = Swift.Duration

    enum Kind: UInt8, Sendable, Hashable {
        case uptime, continuous
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// The system's uptime clock, which stops while the device sleeps (the timeline of `DispatchTime`).
    public static let uptime = TickClock(.uptime)

    /// The system's continuous clock, which keeps counting while the device sleeps.
    public static let continuous = TickClock(.continuous)

    /// The current instant on this clock, from the time base in effect: the system's clock, or the
    /// virtual reading inside `VirtualTime.run`.
    public var now: TickInstant { TickInstant(nanoseconds: TimeBase.current.now(self)) }

    /// One nanosecond: the unit of ``TickInstant``. Deliveries are as precise as the context's driver.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Waits until `deadline` on TimerKit's engine (a one-shot ticker on the shared `TimerKit.ticks`
    /// precise thread; under virtual time, until a test advances past it), at most `tolerance` late.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first; the wait then ends at once.
    public func sleep(until deadline: TickInstant, tolerance: Duration? = nil) async throws {
        let base = TimeBase.current
        let delay = deadline.nanoseconds.subtractingSaturating(base.now(self))
        // No iterator keeps a sleeper's turn after it returns: async advances do not wait for it.
        var consumer: RunningConsumer?
        let woke = await EngineWait.wait(
            nanoseconds: delay, tolerance: tolerance ?? .zero, clock: self, on: base, fileID: #fileID, line: #line,
            consumer: &consumer)
        if !woke || Task.isCancelled { throw CancellationError() }
    }

    /// The wall-clock date on TimerKit's timeline: `Date()`, or under virtual time the virtual reading as
    /// seconds since 1 January 2001 (00:00:01 UTC when a `VirtualTime` starts), so that schedules at a date
    /// (``TickSchedule/at(_:tolerance:file:line:)``) can be tested.
    public static var date: Date { TimeBase.current.source.date() }

    /// `uptime` or `continuous`.
    public var description: String {
        switch kind {
        case .uptime: "uptime"
        case .continuous: "continuous"
        }
    }
}
