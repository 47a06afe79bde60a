import Foundation

@testable import TimerKit

/// Captures TimerKit's diagnostics for the tests of this target. Every test target runs in one process,
/// in parallel, with one process-wide log handler: the capture is installed once, passes every line on to
/// the handler it replaced (another target's capture, or standard error), and each test filters the lines
/// by something only it produces (a queue label, a virtual instant of its own).
enum DiagnosticsCapture {
    private static let lines = Locked<[String]>.make([])
    private static let installed: Void = {
        // Read and replace the handler under one lock, so that a capture installed at the same moment by
        // another target is not lost.
        TickerDiagnostics.configuration.withLock { configuration in
            let previous = configuration.logHandler
            configuration.logHandler = { line in
                DiagnosticsCapture.lines.withLock { $0.append(line) }
                previous(line)
            }
        }
    }()

    static func install() { _ = installed }

    static func lines(containing fragment: String) -> [String] {
        lines.withLock { $0.filter { $0.contains(fragment) } }
    }

    /// Blocks the calling thread until a line containing `fragment` has been logged, checking every 10 ms
    /// for at most `timeout` of real time (a generous bound: the line is normally there long before).
    /// Returns the lines. Synchronous on purpose: a test that blocks a queue (or the main actor) frees it
    /// from that queue, without needing a task of the cooperative pool, which other tests may be blocking.
    static func waitForLines(containing fragment: String, timeout: Duration = .seconds(60)) -> [String] {
        let giveUp = ContinuousClock.now + timeout
        while ContinuousClock.now < giveUp {
            let found = lines(containing: fragment)
            if !found.isEmpty { return found }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return lines(containing: fragment)
    }
}
