import Foundation
import TimerKit

/// The countdown section's settings.
struct CountdownTiming: Sendable {
    var count = 5
    var interval: Duration = .milliseconds(100)
    /// How long the loop body stalls, once, after the first tick.
    var stall: Duration = .milliseconds(250)
    /// How long the demo waits for the countdown before giving up on it.
    var timeout: Duration = .seconds(2)
}

/// One tick of the countdown, its instants in milliseconds since the loop began (since `for await` made
/// the iterator, which starts the schedule).
struct CountdownStep: Encodable, Sendable {
    let index: Int
    let remaining: Int?
    let skipped: Int
    let deadlineMilliseconds: Double
    let atMilliseconds: Double
    let latenessMilliseconds: Double
    /// Whether the loop body stalled after this tick.
    let stalledAfter: Bool
}

/// The countdown section's result.
struct CountdownResult: Encodable, Sendable {
    let loop: String
    let clock: String
    let count: Int
    let intervalMilliseconds: Double
    let stallMilliseconds: Double?
    let ticks: [CountdownStep]
    let ticksDelivered: Int
    let skippedTotal: Int
    /// When the loop ended, in milliseconds since it began.
    let finishedMilliseconds: Double
    /// Whether the loop ended before the demo's timeout.
    let finished: Bool
    /// Whether everything behaved as described (``problems`` is empty).
    var asExpected = true

    /// What did not behave as described (empty when all did).
    var problems: [String] {
        guard finished else { return ["the countdown did not finish within the timeout"] }
        var found: [String] = []
        if ticks.reduce(0, { $0 + 1 + $1.skipped }) != count {
            found.append("ticks plus skipped deadlines do not add up to \(count)")
        }
        if ticks.last?.remaining != 0 { found.append("the last tick did not have remaining == 0") }
        if zip(ticks, ticks.dropFirst()).contains(where: { $0.index + 1 + $1.skipped != $1.index }) {
            found.append("tick indices do not advance by 1 + skipped")
        }
        if ticks.contains(where: { $0.latenessMilliseconds < 0 }) { found.append("a tick came before its deadline") }
        if stallMilliseconds != nil, skippedTotal == 0 { found.append("the stall skipped no deadline") }
        if stallMilliseconds == nil { found.append("the stall did not happen") }
        return found
    }
}

/// Runs the countdown: `for await` over `Ticker.ticks(.countdown(...))` on the continuous clock, with one
/// stall in the loop body after the first tick.
func runCountdown(timing: CountdownTiming) async -> CountdownResult {
    let clock = ContinuousClock()
    var ticks: [ClockTick<ContinuousClock>] = []
    var stall: Duration?
    for await tick in Ticker.ticks(.countdown(from: timing.count, every: timing.interval)) {
        ticks.append(tick)
        if stall == nil, !tick.isLast {
            // The body is busy for longer than two intervals: the next tick stands for the latest
            // deadline that passed, and the ones before it are counted in `skipped`.
            let began = clock.now
            try? await clock.sleep(for: timing.stall)
            stall = began.duration(to: clock.now)
        }
    }
    let ended = clock.now
    // The loop began when `for await` made the iterator: deadline k is k intervals after that.
    let start = ticks.first.map { $0.deadline.advanced(by: timing.interval * -$0.index) } ?? ended
    let since = { (instant: ContinuousClock.Instant) in milliseconds(start.duration(to: instant).nanosecondsValue) }
    let steps = ticks.enumerated().map { number, tick in
        CountdownStep(
            index: tick.index,
            remaining: tick.remaining,
            skipped: tick.skipped,
            deadlineMilliseconds: since(tick.deadline),
            atMilliseconds: since(tick.timestamp),
            latenessMilliseconds: milliseconds(tick.lateness.nanosecondsValue),
            stalledAfter: number == 0 && stall != nil
        )
    }
    return CountdownResult(
        loop: "for await tick in Ticker.ticks(.countdown(from: \(timing.count), every: "
            + ".milliseconds(\(Int(milliseconds(timing.interval.nanosecondsValue))))))",
        clock: "ContinuousClock",
        count: timing.count,
        intervalMilliseconds: milliseconds(timing.interval.nanosecondsValue),
        stallMilliseconds: stall.map { milliseconds($0.nanosecondsValue) },
        ticks: steps,
        ticksDelivered: steps.count,
        skippedTotal: steps.reduce(0) { $0 + $1.skipped },
        finishedMilliseconds: since(ended),
        finished: true
    )
}

/// Runs the countdown in a task while the main thread keeps running `RunLoop.main`, and waits for it, at
/// most `timing.timeout`.
@MainActor
func runCountdownDemo(timing: CountdownTiming) -> CountdownResult {
    let mailbox = Mailbox<CountdownResult>()
    let task = Task.detached { mailbox.put(await runCountdown(timing: timing)) }
    let deadline = Date(timeIntervalSinceNow: timing.timeout.seconds)
    while mailbox.value == nil, deadline.timeIntervalSinceNow > 0 {
        runMainRunLoop(for: .milliseconds(5))
    }
    guard var result = mailbox.value else {
        task.cancel()
        return CountdownResult(
            loop: "", clock: "ContinuousClock", count: timing.count,
            intervalMilliseconds: milliseconds(timing.interval.nanosecondsValue), stallMilliseconds: nil,
            ticks: [], ticksDelivered: 0, skippedTotal: 0,
            finishedMilliseconds: milliseconds(timing.timeout.nanosecondsValue), finished: false, asExpected: false)
    }
    result.asExpected = result.problems.isEmpty
    return result
}

/// A value handed from a task to the thread that waits for it.
final class Mailbox<Value: Sendable>: @unchecked Sendable {
    // Invariant: `stored` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var stored: Value?

    func put(_ value: Value) {
        lock.withLock { stored = value }
    }

    var value: Value? { lock.withLock { stored } }
}
