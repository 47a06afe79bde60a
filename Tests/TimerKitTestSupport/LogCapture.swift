import Foundation
import TimerKit

/// Captures TimerKit's diagnostics for every test target at once. The test targets run in one process, in
/// parallel, and share this one module, so the handler is installed once (by the first test that asks) and
/// never swapped; each test filters the lines by something only it produces (its own `#fileID`:line, a
/// queue label, a unique owner type, a virtual instant of its own). The lines are kept, not printed, so that a
/// passing run prints only the test results; set `TIMERKIT_TEST_LOG=1` to also write each line to standard
/// error, as TimerKit's default handler does.
///
/// A suite whose tests make TimerKit log (warnings, owner-release lines) installs the capture in its `init()`,
/// so that no line reaches standard error before the first install.
public enum LogCapture {
    private static let echoes = ProcessInfo.processInfo.environment["TIMERKIT_TEST_LOG"] == "1"

    /// The lines logged since the capture was installed, less the ones taken.
    private static let lines = CapturedLines()
    private static let installed: Void = {
        TickerDiagnostics.setLogHandler { line in
            LogCapture.lines.withLock { $0.append(line) }
            if echoes { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        }
    }()

    /// Installs the capture (once per process; later calls do nothing).
    public static func install() { _ = installed }

    /// The captured lines that contain `fragment`.
    public static func lines(containing fragment: String) -> [String] {
        lines.withLock { $0.filter { $0.contains(fragment) } }
    }

    /// Removes and returns the lines containing `fragment` (for tests that log many lines, so that the
    /// capture does not grow with them).
    public static func take(containing fragment: String) -> [String] {
        lines.withLock { lines in
            let taken = lines.filter { $0.contains(fragment) }
            lines.removeAll { $0.contains(fragment) }
            return taken
        }
    }

    /// Blocks the calling thread until a line containing `fragment` has been logged, checking every 10 ms
    /// for at most `timeout` of real time (a generous bound: the line is normally there long before).
    /// Returns the lines. Synchronous on purpose: a test that blocks a queue (or the main actor) frees it
    /// from that queue, without needing a task of the cooperative pool, which other tests may be blocking.
    public static func waitForLines(containing fragment: String, timeout: Duration = .seconds(60)) -> [String] {
        let giveUp = ContinuousClock.now + timeout
        while ContinuousClock.now < giveUp {
            let found = lines(containing: fragment)
            if !found.isEmpty { return found }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return lines(containing: fragment)
    }
}

/// The captured lines behind an `NSLock` (`Synchronization.Mutex` is reported as racy by ThreadSanitizer
/// when contended).
private final class CapturedLines: @unchecked Sendable {
    // Invariant: `lines` is read and written only between `lock.lock()` and `lock.unlock()` in `withLock`.
    private let lock = NSLock()
    private var lines: [String] = []

    func withLock<Result>(_ body: (inout [String]) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&lines)
    }
}
