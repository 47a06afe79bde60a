import Dispatch
import Foundation

/// Where "now" comes from and how a context's single alarm is made: the system's monotonic clock with
/// real drivers, or virtual time that tests advance by hand.
///
/// Each time base owns its registry of engines (one per context), so tickers made under virtual time
/// never share an engine with real ones, and a virtual time base takes its engines with it when it goes.
final class TimeBase: Sendable {
    enum Source: Sendable {
        case system
        case virtual(VirtualClock)

        /// The current instant, in nanoseconds on this source's uptime timeline.
        @inline(__always)
        func now() -> Int64 {
            switch self {
            case .system: Int64(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds)
            case .virtual(let clock): clock.now()
            }
        }

        /// The current instant on `kind`'s timeline. Virtual time has one timeline for every kind.
        @inline(__always)
        func now(_ kind: TickClock.Kind) -> Int64 {
            switch (self, kind) {
            case (.system, .uptime): now()
            case (.system, .continuous): Self.continuousNow()
            case (.virtual(let clock), _): clock.now()
            }
        }

        /// The wall-clock date. Under virtual time, the virtual wall clock (at first the virtual reading in
        /// seconds since the reference date, 1 January 2001), so that schedules at a `Date` run on virtual
        /// time too.
        func date() -> Date {
            switch self {
            case .system: Date()
            case .virtual(let clock): clock.date()
            }
        }

        /// The wall clock in nanoseconds since 1970 (UTC): `CLOCK_REALTIME`, or the virtual wall clock.
        func wallNanoseconds() -> Int64 {
            switch self {
            case .system:
                var time = timespec()
                clock_gettime(CLOCK_REALTIME, &time)
                return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
            case .virtual(let clock): return clock.wallNanoseconds()
            }
        }

        /// The current time zone: the system's (followed when it changes), or the virtual one.
        func timeZone() -> TimeZone {
            switch self {
            case .system: TimeZone.current
            case .virtual(let clock): clock.timeZone
            }
        }

        /// Nanoseconds of the system's continuous clock, which keeps counting while the device sleeps:
        /// `CLOCK_BOOTTIME` on Linux, continuous time on Apple platforms.
        @inline(__always)
        static func continuousNow() -> Int64 { Platform.continuousNanoseconds() }
    }

    let source: Source
    /// Engines by context and clock. The main run loop's engines are held for the life of the time base
    /// (on Linux a `Foundation.Timer` is never freed, so the main loop's is made once, not once per burst
    /// of tickers); every other engine is held weakly and keeps itself alive while it has live tickers.
    let engineRegistry = Locked<SharedObjects<EngineKey, TickerEngine>>.make(SharedObjects())
    /// System alarms by context, shared by the context's engines (one per clock): held like the engines
    /// (for the life of the time base on the main run loop, weakly elsewhere, where the engines' slots keep
    /// their shared alarm alive; the last slot's release shuts the system alarm down).
    let alarmRegistry = Locked<SharedObjects<ContextKey, SharedAlarm>>.make(SharedObjects())
    /// Shared frame sources, held weakly (see `FrameSource.software(refreshRate:on:file:line:)`).
    let frameSourceRegistry = Locked<SharedObjects<FrameSourceKey, FrameSource>>.make(SharedObjects())

    init(_ source: Source) {
        self.source = source
    }

    /// The process-wide system time base.
    static let system = TimeBase(.system)

    /// The time base tickers created in this task use: virtual time inside a test's scope, else system.
    @TaskLocal static var override: TimeBase?

    /// Virtual time in a test's task (and the tasks it creates), else a virtual time installed for the
    /// whole process (an XCTest case), else system. Without any virtual time, one atomic load.
    static var current: TimeBase {
        if let override { return override }
        guard VirtualTimeActivity.isAnyActive else { return system }
        return VirtualTimeActivity.processWide ?? system
    }

    /// The current instant, in nanoseconds on this time base's uptime timeline.
    @inline(__always)
    func now() -> Int64 { source.now() }

    /// The current instant on `clock`'s timeline.
    @inline(__always)
    func now(_ clock: TickClock) -> Int64 { source.now(clock.kind) }

    /// The engine serving `context` on `clock`'s timeline on this time base, created on first use.
    func engine(for context: TickerContext, clock: TickClock = .uptime) -> TickerEngine {
        let engine = engineRegistry.object(
            for: EngineKey(context: context.key, clock: clock.kind), permanent: context.enginesArePermanent
        ) {
            TickerEngine(context: context, clock: clock.kind, timeBase: self)
        }
        // The current thread's own run loop (`TickerContext.current`): its tickers are cancelled when the
        // thread ends.
        if case .runLoop(let loop, _) = context.storage, loop.isCallersOwn { RunLoopThreadEnd.watchOnItsThread(engine) }
        return engine
    }

    /// Cancels every live ticker on this time base, releasing their handlers and engines (used when a
    /// virtual time base is torn down, so that a test's leftover tickers do not outlive it).
    func cancelAllTickers() {
        engines().forEach { $0.cancelAll() }
    }

    /// Every engine currently alive on this time base (for diagnostics).
    func engines() -> [TickerEngine] {
        engineRegistry.withLock { $0.all() }
    }

    /// Makes the alarm of the engine serving `context` on `clock`: called once per engine, by its first
    /// arming (an engine that loses the race to be registered never arms, so it never makes one).
    func makeAlarm(
        for context: TickerContext, clock: TickClock.Kind, wake: @escaping @Sendable () -> Void
    ) -> any EngineAlarm {
        switch (source, clock) {
        case (.virtual(let clock), _):
            // A wake-up may run on another thread (a queue, the main thread): it brings the time base. Unowned,
            // not weak: only this time base's own advances wake its alarms, so it is alive whenever this runs,
            // and a weak reference to a time base that lives until the process exits (a test case's, which
            // XCTest keeps) would be reported by LeakSanitizer once the alarm is gone.
            let scoped: @Sendable () -> Void = { [unowned self] in
                TimeBase.$override.withValue(self, operation: wake)
            }
            return clock.makeAlarm(delivery: context.virtualDelivery, wake: scoped)
        case (.system, let kind):
            // One system alarm per context, whichever clocks its engines count on: their deliveries then
            // never overlap, and a context keeps one system timer.
            let shared = alarmRegistry.object(for: context.key, permanent: context.enginesArePermanent) {
                SharedAlarm(context: context)
            }
            let slot = shared.slot(wake: wake)
            return kind == .continuous ? ContinuousAlarm(slot) : slot
        }
    }
}

/// What identifies an engine in a time base's registry: its context and the clock it counts on.
struct EngineKey: Hashable, Sendable {
    let context: ContextKey
    let clock: TickClock.Kind
}

/// A continuous-clock engine's alarm on a system context: the context's drivers wait on the uptime clock,
/// which stops while the device sleeps, so the deadline is turned into a delay from now and no single wait
/// is longer than `longestWait`. After the device sleeps through a deadline, the next wait ends at most
/// `longestWait` after it wakes, and the engine then finds the deadline passed (a wait that ends early
/// finds nothing due and re-arms).
final class ContinuousAlarm: EngineAlarm {
    private let alarm: any EngineAlarm

    /// The longest wait on the uptime clock: how late a continuous ticker can be after the device slept.
    static let longestWait: Int64 = 1_000_000_000

    init(_ alarm: any EngineAlarm) {
        self.alarm = alarm
    }

    func arm(at deadline: Int64, sequence: UInt64) {
        // A saturated deadline is never reached, on any clock.
        guard deadline < .max else { return alarm.arm(at: .max, sequence: sequence) }
        let delay = deadline.subtractingSaturating(TimeBase.Source.continuousNow())
        alarm.arm(
            at: TimeBase.Source.system.now().addingSaturating(min(max(0, delay), Self.longestWait)), sequence: sequence)
    }

    func shutDown() { alarm.shutDown() }
}

/// An engine's wake-up: "wake me at T", with the sequence number the arming was issued with under the
/// engine's lock. Armings are applied after unlocking, so two of them may land in either order: an alarm
/// ignores one older than the newest it has taken (sequences compared by their wrapping difference), so
/// the newest issued is always the one in force, with no retry loop at the engine.
protocol EngineAlarm: AnyObject, Sendable {
    /// Arms for `deadline` (nanoseconds on the time base), replacing an earlier arming, unless an arming
    /// with a later `sequence` has already landed. Thread-safe; a deadline in the past wakes at once.
    func arm(at deadline: Int64, sequence: UInt64)
    /// Releases the alarm. Called once, when the engine goes away.
    func shutDown()
}

/// What shares one wake-up among several engines' alarms (the shared alarm of a context, a virtual
/// clock): each engine's alarm is a ``HostedAlarm``, its number in the host.
protocol AlarmHost: AnyObject, Sendable {
    /// Arms slot `id` for `deadline` unless it already took an arming with a later `sequence` (see
    /// ``EngineArming``).
    func arm(_ id: Int, at deadline: Int64, sequence: UInt64)
    /// Drops slot `id` (its engine went away).
    func remove(_ id: Int)
}

/// One engine's alarm in an ``AlarmHost``.
final class HostedAlarm<Host: AlarmHost>: EngineAlarm {
    private let host: Host
    private let id: Int

    init(_ host: Host, id: Int) {
        self.host = host
        self.id = id
    }

    func arm(at deadline: Int64, sequence: UInt64) { host.arm(id, at: deadline, sequence: sequence) }
    func shutDown() { host.remove(id) }
}

/// What an ``EngineAlarm`` is armed for: the deadline of the newest arming it took (nil once it fired or
/// before the first), and that arming's sequence. Kept under the alarm's own lock.
struct EngineArming {
    var deadline: Int64?
    private(set) var sequence: UInt64 = 0

    /// Takes an arming, unless it is older than (or the same as) the one taken; true when taken.
    mutating func take(_ deadline: Int64, sequence: UInt64) -> Bool {
        guard !Self.isStale(sequence, after: self.sequence) else { return false }
        self.deadline = deadline
        self.sequence = sequence
        return true
    }

    /// Whether an arming with `sequence` is older than (or the same as) one with `latest`: sequences
    /// compare by their wrapping difference.
    static func isStale(_ sequence: UInt64, after latest: UInt64) -> Bool {
        Int64(bitPattern: sequence &- latest) <= 0
    }
}

/// A context's single system wake-up source: "wake me at T" and nothing else. Armed only by its
/// ``SharedAlarm``, through `apply`.
protocol Alarm: AnyObject, Sendable {
    /// Arms the alarm for `deadline` (nanoseconds on the time base), replacing any earlier arming.
    /// Thread-safe; a deadline in the past wakes as soon as the context runs.
    func arm(at deadline: Int64)
    /// Releases the backend resource. Called once, when the engine goes away.
    func shutDown()
}

extension Alarm {
    /// Arms for `arming` (a deadline and the sequence number it was issued with under its owner's lock),
    /// outside that lock. Armings issued on several threads may land in any order, so after each one
    /// `newer` is asked, under the lock, for an arming issued since; it is applied in turn, so that the
    /// last arming to land is always the newest.
    func apply(_ arming: (Int64, UInt64)?, newer: (UInt64) -> (Int64, UInt64)?) {
        guard var (deadline, sequence) = arming else { return }
        while true {
            arm(at: deadline)
            guard let next = newer(sequence) else { return }
            (deadline, sequence) = next
        }
    }
}
