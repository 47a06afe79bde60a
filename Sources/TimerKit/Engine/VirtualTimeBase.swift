/// The engine side of virtual time, for the `TimerKitTesting` product (package access only).
///
/// Owns a virtual clock and the time base built on it. Tickers and tick sequences created while it is
/// active (`withActive`) use it: their contexts' alarms become virtual, so they fire only when the clock
/// is advanced, synchronously and in deadline order, on the advancing thread.
package final class VirtualTimeBase: Sendable {
    let clock: VirtualClock
    let base: TimeBase

    package init(startNanoseconds: Int64) {
        clock = VirtualClock(start: startNanoseconds)
        base = TimeBase(.virtual(clock))
    }

    /// Leftover tickers are cancelled with their virtual time, so nothing outlives it.
    deinit {
        base.cancelAllTickers()
    }

    package func withActive<T>(_ body: () throws -> T) rethrows -> T {
        try TimeBase.$override.withValue(base, operation: body)
    }

    package func withActive<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        try await TimeBase.$override.withValue(base, operation: body, isolation: isolation)
    }

    package var nowNanoseconds: Int64 { clock.now() }

    package var nextDeadlineNanoseconds: Int64? { clock.nextDeadline() }

    /// Fires every alarm due by `target`, in order, then sets the clock to `target`. Returns the number of
    /// wake-ups.
    @discardableResult
    package func advance(toNanoseconds target: Int64) -> Int {
        withActive { clock.run(until: target) }
    }

    package func liveTickers() -> [TickerSnapshot] {
        withActive { TickerDiagnostics.liveTickers() }
    }

    package func cancelAllTickers() {
        base.cancelAllTickers()
    }
}
