import Dispatch
import Foundation
import TimerKit

// The expiry section: a store of sessions that expire at a high rate — `count` one-shots whose deadlines
// are spread evenly over `window` (100,000 over 2 s: 50,000 expiries a second), on one dispatch queue,
// with and without tolerance. The figure is the CPU time of the whole process from the end of creation
// until the last one has fired, per expiry: what each expiry costs the store, wake-ups included.

/// One kind at one tolerance in the expiry section.
struct ExpiryResult: Codable, Sendable {
    var kind: TimerKind
    var toleranceMilliseconds: Double
    var count: Int
    var windowSeconds: Double
    /// CPU (user + system, every thread) from the end of creation to the last fire, per expiry.
    var cpuMicrosecondsPerExpiry: Double
    /// Creation time per timer, for reference (not part of the expiry figure).
    var createMicroseconds: Double
    /// Voluntary context switches of the process over the same span, per second of the window: a proxy
    /// for the wake-ups the timers cause.
    var switchesPerSecond: Double
    var allFired: Bool
}

/// Handler calls of the expiry section's timers (a global, so that handlers capture nothing).
private let expiryFires = Locked(0)

/// Measures `count` one-shots of `kind` (`.timerKitDispatch` or `.dispatchSource`) due evenly over
/// `window`, starting `lead` after creation begins, with `tolerance` (a ticker's tolerance, a dispatch
/// source's leeway).
func measureExpiry(
    kind: TimerKind, count: Int, window: Duration, tolerance: Duration, lead: Duration = .seconds(1)
) -> ExpiryResult {
    expiryFires.withLock { $0 = 0 }
    let queue = DispatchQueue(label: "bench.expiry")
    let step = window.nanoseconds / Int64(count)
    var tickers: [Ticker] = []
    var sources: [any DispatchSourceTimer] = []
    switch kind {
    case .timerKitDispatch: tickers.reserveCapacity(count)
    default: sources.reserveCapacity(count)
    }
    let createStart = monotonicNow()
    for index in 0..<count {
        // Each deadline is its own offset from one start instant, so creation time does not spread them.
        let elapsed = monotonicNow() - createStart
        let delay = Duration.nanoseconds(max(0, lead.nanoseconds + Int64(index) * step - elapsed))
        switch kind {
        case .timerKitDispatch:
            tickers.append(
                Ticker.schedule(.after(delay, tolerance: tolerance), on: .dispatch(queue)) { _ in
                    expiryFires.withLock { $0 += 1 }
                })
        default:
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.schedule(
                deadline: .now() + .nanoseconds(Int(delay.nanoseconds)),
                leeway: .nanoseconds(Int(tolerance.nanoseconds)))
            source.setEventHandler { expiryFires.withLock { $0 += 1 } }
            source.activate()
            sources.append(source)
        }
    }
    let created = monotonicNow()
    let cpuBefore = processCPUNanoseconds()
    let switchesBefore = ProcessUsage.now().voluntarySwitches
    let limit = created + lead.nanoseconds + window.nanoseconds + 20_000_000_000
    while expiryFires.withLock({ $0 }) < count, monotonicNow() < limit { usleep(2_000) }
    let cpu = processCPUNanoseconds() - cpuBefore
    let switches = ProcessUsage.now().voluntarySwitches - switchesBefore
    let allFired = expiryFires.withLock { $0 } == count
    // The waiting loop's own wake-ups (every 2 ms) are the harness's, the same for both kinds.
    tickers.removeAll()
    for source in sources { source.cancel() }
    sources.removeAll()
    queue.sync {}
    return ExpiryResult(
        kind: kind, toleranceMilliseconds: Double(tolerance.nanoseconds) / 1e6, count: count,
        windowSeconds: Double(window.nanoseconds) / 1e9,
        cpuMicrosecondsPerExpiry: Double(cpu) / 1e3 / Double(count),
        createMicroseconds: Double(created - createStart) / 1e3 / Double(count),
        switchesPerSecond: Double(switches) / (Double(window.nanoseconds) / 1e9), allFired: allFired)
}
