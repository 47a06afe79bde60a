import Foundation

@testable import TimerKit

/// Captures TimerKit's diagnostics for every test at once. Tests run in parallel, so the handler is
/// installed once and never swapped; each test filters the lines by something only it produces (its own
/// `#fileID`:line, or a unique owner type).
enum LogCapture {
    private static let lines = Locked<[String]>.make([])
    private static let installed: Void = {
        // Other test targets run in this process and capture too: pass each line on to the handler this
        // one replaces, read and replaced under one lock so that neither capture loses the other.
        TickerDiagnostics.configuration.withLock { configuration in
            let previous = configuration.logHandler
            configuration.logHandler = { line in
                LogCapture.lines.withLock { $0.append(line) }
                previous(line)
            }
        }
    }()

    static func install() { _ = installed }

    static func lines(containing fragment: String) -> [String] {
        lines.withLock { $0.filter { $0.contains(fragment) } }
    }

    /// Removes and returns the lines containing `fragment` (for tests that log many lines, so that the
    /// capture does not grow with them).
    static func take(containing fragment: String) -> [String] {
        lines.withLock { lines in
            let taken = lines.filter { $0.contains(fragment) }
            lines.removeAll { $0.contains(fragment) }
            return taken
        }
    }
}
