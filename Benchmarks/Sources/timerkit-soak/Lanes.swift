import BenchSupport
import Dispatch
import Foundation
import TimerKit

/// One place handlers run: a TimerKit context, or the async consumers (`context` nil).
struct Lane: Sendable {
    let index: Int
    let name: String
    let context: TickerContext?
}

/// Every context the soak spreads its tickers over, and the run-loop thread one of them needs.
struct Lanes: Sendable {
    let all: [Lane]
    let loopThread: LoopThread

    /// The lanes with a `TickerContext` (every lane but the async one).
    var contexts: [Lane] { all.filter { $0.context != nil } }
    /// The async consumers' lane: `for await` over `Ticker.ticks`, which waits on TimerKit's engine.
    var async: Lane { all.first { $0.context == nil }! }

    init() {
        loopThread = LoopThread(name: "soak.runloop")
        let contexts: [(String, TickerContext)] = [
            ("dispatch serial", .dispatch(DispatchQueue(label: "soak.serial"))),
            ("dispatch serial, 1 ms leeway", .dispatch(DispatchQueue(label: "soak.leeway"), leeway: .milliseconds(1))),
            ("dispatch serial, strict", .dispatch(DispatchQueue(label: "soak.strict"), strict: true)),
            ("dispatch concurrent", .dispatch(DispatchQueue(label: "soak.concurrent", attributes: .concurrent))),
            ("run loop", loopThread.context),
            ("precise", .precise),
            ("precise(label:)", .precise(label: "soak.precise")),
        ]
        all =
            contexts.enumerated().map { Lane(index: $0.offset, name: $0.element.0, context: $0.element.1) }
            + [Lane(index: contexts.count, name: "async ticks", context: nil)]
    }
}

/// A dedicated thread that runs its `RunLoop` until `stop()`.
///
/// A timer of its own keeps the loop's default mode non-empty, so that `run` waits instead of returning
/// at once (TimerKit's timer leaves the loop whenever the context has no live ticker). `stop()` schedules
/// a one-shot whose handler stops the loop from inside.
final class LoopThread: Sendable {
    let context: TickerContext
    private let exited = DispatchSemaphore(value: 0)

    init(name: String) {
        let published = DispatchSemaphore(value: 0)
        let handoff = LoopHandoff()
        let exited = exited
        let thread = Thread {
            // An explicit fire date: a Linux block timer added to a loop otherwise fires at once.
            let keepAlive = Foundation.Timer(fire: .distantFuture, interval: 1e9, repeats: true) { _ in }
            RunLoop.current.add(keepAlive, forMode: .default)
            handoff.loop = RunLoop.current
            published.signal()
            // `CFRunLoopStop` from a handler makes `run` return; nothing else does.
            _ = RunLoop.current.run(mode: .default, before: .distantFuture)
            keepAlive.invalidate()
            exited.signal()
        }
        thread.name = name
        thread.start()
        published.wait()
        context = .runLoop(handoff.loop!)
    }

    /// Stops the loop from one of its own handlers and waits for the thread to return.
    func stop() {
        let stopper = Ticker.schedule(.after(.zero), on: context) { _ in bench_stop_current_run_loop() }
        exited.wait()
        withExtendedLifetime(stopper) {}
    }
}

/// Carries the new thread's `RunLoop` to the thread that creates it.
private final class LoopHandoff: @unchecked Sendable {
    // Invariant: written once by the new thread before it signals `published`, read by the creator only
    // after waiting for that signal (the semaphore orders the two).
    var loop: RunLoop?
}
