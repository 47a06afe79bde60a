import Dispatch
import Foundation
import TimerKit

// The primitives section: what one clock reading and one uncontended lock cost through TimerKit, next to
// the raw calls, so that a change of platform code (the lock, the clocks) shows in one run.

/// One primitive's cost.
struct PrimitiveResult: Codable, Sendable {
    var name: String
    var isTimerKit: Bool
    /// Nanoseconds per operation: the median of the rounds.
    var nanoseconds: Double
}

/// Keeps a value alive and observable, so that the optimiser cannot drop the loop computing it.
@inline(never)
private func consume<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Nanoseconds per call of `body`, the median of `rounds` rounds of `iterations` calls.
private func perCall(rounds: Int = 5, iterations: Int = 1_000_000, _ body: () -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = monotonicNow()
        for _ in 0..<iterations { body() }
        samples.append(Double(monotonicNow() - start) / Double(iterations))
    }
    return samples.sorted()[rounds / 2]
}

func measurePrimitives() -> [PrimitiveResult] {
    var results: [PrimitiveResult] = []
    func row(_ name: String, timerKit: Bool, _ body: () -> Void) {
        results.append(PrimitiveResult(name: name, isTimerKit: timerKit, nanoseconds: perCall(body)))
    }
    var sink: Int64 = 0
    row("`TickClock.uptime.now`", timerKit: true) { sink &+= TickClock.uptime.now.nanoseconds }
    row("`DispatchTime.now().uptimeNanoseconds`", timerKit: false) {
        sink &+= Int64(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds)
    }
    row("`TickClock.continuous.now`", timerKit: true) { sink &+= TickClock.continuous.now.nanoseconds }
    let continuousStart = ContinuousClock.now
    row("`ContinuousClock.now`", timerKit: false) {
        sink &+= continuousStart.duration(to: .now).components.attoseconds
    }
    var time = timespec()
    #if canImport(Glibc)
        row("`clock_gettime(CLOCK_BOOTTIME)`", timerKit: false) {
            clock_gettime(CLOCK_BOOTTIME, &time)
            sink &+= Int64(time.tv_nsec)
        }
    #endif
    consume(sink)
    // One uncontended lock: reading a ticker's state takes its engine's lock once.
    let ticker = Ticker.schedule(.after(.seconds(3_600)), on: .precise) { _ in }
    var states = 0
    row("`Ticker.state` (one engine lock)", timerKit: true) { states &+= ticker.state == .running ? 1 : 0 }
    ticker.cancel()
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    var counter = 0
    row("`pthread_mutex_lock` + `unlock`", timerKit: false) {
        pthread_mutex_lock(mutex)
        counter &+= 1
        pthread_mutex_unlock(mutex)
    }
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    let lock = NSLock()
    row("`NSLock` `lock()` + `unlock()`", timerKit: false) {
        lock.lock()
        counter &+= 1
        lock.unlock()
    }
    consume(states &+ counter)
    return results
}
