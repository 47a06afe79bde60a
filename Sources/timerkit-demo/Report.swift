import Foundation
import TimerKit

/// Formats the cases' results for people (a table) or for tools (JSON).
struct Report {
    let results: [CaseResult]
    let timing: Timing

    var allAsExpected: Bool { results.allSatisfy(\.isExpected) }

    /// The results as a JSON array, one object per case, keys sorted.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(results), as: UTF8.self)
    }

    /// The human report: the scenario, a table of cases, the calls, and what is still alive.
    func text(survivors: (screens: Int, ticksSinceMeasured: Int), diagnostics: String) -> String {
        var lines = [
            "TimerKit demo: the seeds' screen with a repeating timer, pushed and popped.",
            "Each case pushes a screen with a \(milliseconds(timing.interval)) ms timer, shows it for "
                + "\(milliseconds(timing.onScreen)) ms, pops it, then counts ticks for another "
                + "\(milliseconds(timing.afterPop)) ms.",
            "Run-loop cases tick on RunLoop.main (run by the main thread); dispatch cases on a serial queue.",
            "",
        ]
        lines += table()
        lines += ["", "Calls:"]
        lines += Binding.allCases.map { "  \(pad($0.label, to: labelWidth))  \($0.call)" }
        lines.append("")
        if survivors.screens > 0 {
            lines.append(
                "Still alive: \(survivors.screens) popped Foundation screen(s), which ticked "
                    + "\(survivors.ticksSinceMeasured) more time(s) while the later cases ran."
            )
        }
        lines.append(diagnostics)
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    private var labelWidth: Int { Binding.allCases.map(\.label.count).max() ?? 0 }

    private func table() -> [String] {
        let header = [
            "#", "library", "binding", "context", "deinitialised", "ticks on screen", "ticks after pop", "verdict",
        ]
        let rows = results.enumerated().map { number, result in
            [
                "\(number + 1)",
                result.library.rawValue,
                result.binding.label,
                result.context.label,
                result.ownerDeinitialised ? "yes" : "no",
                "\(result.ticksOnScreen)",
                "\(result.ticksAfterPop)",
                result.verdict.rawValue + (result.isExpected ? "" : " (unexpected)"),
            ]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        let numeric: Set = [0, 5, 6]
        return ([header] + rows).map { cells in
            let padded = cells.indices.map { column in
                pad(cells[column], to: widths[column], leading: numeric.contains(column))
            }
            return ("  " + padded.joined(separator: "  ")).trimmingTrailingSpaces()
        }
    }

    private var summary: String {
        let unexpected = results.indices.filter { !results[$0].isExpected }
        guard unexpected.isEmpty else {
            let numbers = unexpected.map { "\($0 + 1)" }
            return "UNEXPECTED: case(s) \(numbers.joined(separator: ", ")) did not behave as described."
        }
        return "As expected: Foundation.Timer keeps its popped screen alive and ticking; "
            + "every TimerKit binding lets the screen go and stops with it."
    }

    private func milliseconds(_ duration: Duration) -> Int {
        Int((duration.seconds * 1000).rounded())
    }

    private func pad(_ text: String, to width: Int, leading: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return leading ? fill + text : text + fill
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
