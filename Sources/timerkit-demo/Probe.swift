import Dispatch
import Foundation
import TimerKit

/// What one pushed screen leaves behind: its ticks before and after the pop, and whether its `deinit` ran.
///
/// Ticks may arrive on a dispatch queue while the main thread pops the screen, so a tick is placed by the
/// instant its delivery began, on the monotonic uptime clock that `DispatchTime` and `TickInstant` share:
/// a delivery that had already begun when the screen was popped counts as on screen, every later one as
/// after the pop. A correct ticker can make no delivery after the pop, because its owner is gone by then.
final class Probe: @unchecked Sendable {
    // Invariant: `state` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var state = State()

    private struct State {
        var poppedAt: UInt64?
        var ticksOnScreen = 0
        var ticksAfterPop = 0
        var deinitialised = false
    }

    /// A snapshot of the counters.
    struct Reading {
        var ticksOnScreen: Int
        var ticksAfterPop: Int
        var deinitialised: Bool
    }

    /// Records a tick whose delivery began now.
    func recordTick() {
        recordTick(startedAt: DispatchTime.now().uptimeNanoseconds)
    }

    /// Records a TimerKit tick, placed by the instant the engine began its delivery.
    func recordTick(_ tick: Tick) {
        recordTick(startedAt: UInt64(clamping: tick.timestamp.nanoseconds))
    }

    private func recordTick(startedAt instant: UInt64) {
        lock.withLock {
            if let poppedAt = state.poppedAt, instant > poppedAt {
                state.ticksAfterPop += 1
            } else {
                state.ticksOnScreen += 1
            }
        }
    }

    /// Marks the pop: call right after the navigation stack dropped its last reference to the screen.
    func recordPop() {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock { state.poppedAt = now }
    }

    /// Called from the screen's `deinit`.
    func recordDeinit() {
        lock.withLock { state.deinitialised = true }
    }

    var reading: Reading {
        lock.withLock {
            Reading(
                ticksOnScreen: state.ticksOnScreen,
                ticksAfterPop: state.ticksAfterPop,
                deinitialised: state.deinitialised
            )
        }
    }
}
