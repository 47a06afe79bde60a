import Foundation
import Testing

@testable import TimerKit

/// The real contexts a test can run on, for `@Test(arguments:)` over every driver.
enum ContextKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case runLoop
    case dispatch
    case precise

    var testDescription: String { rawValue }
}

/// A live real context: a run-loop thread or a fresh serial queue. Call `tearDown()` at the end.
final class LiveContext: Sendable {
    let context: TickerContext
    private let thread: RunLoopThread?
    let queue: DispatchQueue?

    init(_ kind: ContextKind) {
        switch kind {
        case .runLoop:
            let thread = RunLoopThread()
            self.thread = thread
            queue = nil
            context = thread.context
        case .dispatch:
            let queue = DispatchQueue(label: "TimerKitTests.\(UUID().uuidString)")
            self.queue = queue
            thread = nil
            context = .dispatch(queue)
        case .precise:
            // A label of its own, so that tests running in parallel never share an engine (each label's
            // thread parks for the rest of the test process).
            queue = nil
            thread = nil
            context = .precise(label: "TimerKitTests.precise.\(UUID().uuidString)")
        }
    }

    /// Waits until whatever the context is running now (a delivery in flight) has finished.
    func drain() {
        if let queue {
            queue.sync {}
        } else if let thread {
            let done = DispatchSemaphore(value: 0)
            thread.runLoop.perform { done.signal() }
            _ = done.wait(timeout: .now() + 5)
        } else {
            // Handlers on a context never overlap: once a zero-delay ticker has run, what ran before it
            // has finished.
            let done = DispatchSemaphore(value: 0)
            let marker = Ticker.schedule(.after(.zero), on: context) { _ in done.signal() }
            _ = done.wait(timeout: .now() + 5)
            withExtendedLifetime(marker) {}
        }
    }

    /// Live tickers on this context's engine.
    var liveTickers: Int { TimeBase.system.engine(for: context).liveCount() }

    func tearDown() { thread?.stop() }
}

/// Keeps objects that a deliberately leaking `Foundation.Timer` captured reachable, so that LeakSanitizer
/// reports only the timer itself (suppressed: Linux never frees it) and not the test's own objects.
enum FoundationLeakQuarantine {
    private static let kept = Locked<[any Sendable]>.make([])
    static func keep(_ value: any Sendable) { kept.withLock { $0.append(value) } }
}
