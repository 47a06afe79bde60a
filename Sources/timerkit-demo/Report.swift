import Foundation
import TimerKit

/// Formats the results for people (tables) or for tools (JSON).
struct Report {
    let results: [CaseResult]
    let timing: Timing
    let frames: FrameResult
    let countdown: CountdownResult

    var allAsExpected: Bool { results.allSatisfy(\.isExpected) && frames.asExpected && countdown.asExpected }

    /// The JSON document: `cases` (one object per case), `frames` and `countdown`.
    private struct Document: Encodable {
        let cases: [CaseResult]
        let frames: FrameResult
        let countdown: CountdownResult
    }

    /// The results as one JSON object, keys sorted.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(cases: results, frames: frames, countdown: countdown)
        return String(decoding: try encoder.encode(document), as: UTF8.self)
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
        lines += ["", "Frame ticks:"] + frameLines()
        lines += ["", "Async ticks:"] + countdownLines()
        lines.append("")
        if survivors.screens > 0 {
            lines.append(
                "Still alive: \(survivors.screens) popped Foundation screen(s), which ticked "
                    + "\(survivors.ticksSinceMeasured) more time(s) while the rest of the demo ran."
            )
        }
        lines.append(diagnostics)
        lines += summary
        return lines.joined(separator: "\n")
    }

    // MARK: Frames

    private func frameLines() -> [String] {
        var lines = [
            "  An animation subscribes two layers to \(frames.source), runs "
                + "\(format(frames.runMilliseconds, 0)) ms, is released."
        ]
        if let stall = frames.stall {
            lines.append(
                "  The \(stall.layer.rawValue) handler sleeps \(format(stall.milliseconds, 1)) ms once (frame "
                    + "\(stall.atFrame)), on a refresh the label does not share: it spans frames of both.")
        }
        lines.append("")
        let header = [
            "layer", "binding", "asked", "got", "frames", "eff. fps", "dropped", "pacing mean/max", "late mean/max",
        ]
        let rows = frames.subscribers.map { subscriber in
            [
                subscriber.layer.rawValue,
                subscriber.layer.bindingLabel,
                "\(format(subscriber.preferredFps, 0)) fps",
                "\(format(subscriber.frameRateHz, 0)) Hz",
                "\(subscriber.framesDelivered)",
                format(subscriber.effectiveFps, 1),
                "\(subscriber.droppedFrames)",
                "\(format(subscriber.meanPacingErrorMilliseconds, 2)) / "
                    + "\(format(subscriber.maxPacingErrorMilliseconds, 2)) ms",
                "\(format(subscriber.meanLatenessMilliseconds, 2)) / "
                    + "\(format(subscriber.maxLatenessMilliseconds, 2)) ms",
            ]
        }
        lines += align([header] + rows, numeric: [2, 3, 4, 5, 6, 7, 8])
        let onGrid = frames.subscribers.allSatisfy(\.timestampsOnGrid)
        let release = frames.release
        lines += [
            "",
            "  eff. fps: frames delivered per second of the run. pacing: |handler start delta - (1 + droppedFrames)",
            "  x frame duration| between consecutive frames. late: frame.lateness (timestamp - deadline).",
            "  deadlines: "
                + (onGrid
                    ? "on the refresh grid (each delta (1 + droppedFrames) frames, to the nanosecond)."
                    : "OFF the refresh grid."),
            "  Calls:",
        ]
        lines += Layer.allCases.map { "    \(pad($0.rawValue, to: 6))  \($0.call)" }
        lines += [
            "  Released: deinit \(release.animationDeinitialised ? "ran" : "did NOT run"); right after, "
                + describe(release.rightAfter) + ";",
            "  \(format(release.watchedMilliseconds, 0)) ms later, " + describe(release.watched)
                + ", \(release.framesAfterRelease) frame(s) after the release.",
        ]
        if release.rightAfter.subscriberCount > 0 {
            lines.append("  (The owner-bound sprite subscription, its handle not kept, ends at the next refresh.)")
        }
        return lines
    }

    private func describe(_ state: SourceState) -> String {
        "isRunning \(state.isRunning), subscriberCount \(state.subscriberCount)"
    }

    // MARK: Countdown

    private func countdownLines() -> [String] {
        guard countdown.finished else {
            return ["  The countdown did not finish within the demo's timeout."]
        }
        var lines = ["  \(countdown.loop) { ... }"]
        if let stall = countdown.stallMilliseconds {
            lines.append("  The loop body stalls once, \(format(stall, 1)) ms, after the first tick.")
        }
        lines.append("")
        let header = ["tick", "remaining", "deadline", "produced", "late", "skipped", ""]
        let rows = countdown.ticks.map { step in
            [
                "#\(step.index)",
                step.remaining.map { "\($0)" } ?? "-",
                "+\(format(step.deadlineMilliseconds, 1)) ms",
                "+\(format(step.atMilliseconds, 1)) ms",
                "\(format(step.latenessMilliseconds, 2)) ms",
                "\(step.skipped)",
                step.stalledAfter ? "<- body stalls here" : "",
            ]
        }
        lines += align([header] + rows, numeric: [1, 2, 3, 4, 5])
        let skippedIndices = countdown.ticks.flatMap { step in
            (step.index - step.skipped..<step.index).map { "#\($0)" }
        }
        lines.append("")
        lines.append(
            "  \(countdown.ticksDelivered) ticks for \(countdown.count) deadlines"
                + (skippedIndices.isEmpty
                    ? "."
                    : ": \(skippedIndices.joined(separator: ", ")) skipped, not delivered late in a burst; "
                        + "later deadlines stay on the grid.")
        )
        lines.append("  The loop ended at +\(format(countdown.finishedMilliseconds, 1)) ms.")
        return lines
    }

    // MARK: Formatting

    /// Columns padded to their widest cell (right-aligned when numeric), two spaces apart.
    private func align(_ table: [[String]], numeric: Set<Int>) -> [String] {
        guard let first = table.first else { return [] }
        let widths = first.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        return table.map { cells in
            let padded = cells.indices.map { column in
                pad(cells[column], to: widths[column], leading: numeric.contains(column))
            }
            return ("  " + padded.joined(separator: "  ")).trimmingTrailingSpaces()
        }
    }

    private func format(_ value: Double, _ places: Int) -> String {
        String(format: "%.\(places)f", value)
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

    private var summary: [String] {
        var lines: [String] = []
        let unexpected = results.indices.filter { !results[$0].isExpected }
        if unexpected.isEmpty {
            lines.append(
                "As expected: Foundation.Timer keeps its popped screen alive and ticking; "
                    + "every TimerKit binding lets the screen go and stops with it.")
        } else {
            let numbers = unexpected.map { "\($0 + 1)" }
            lines.append("UNEXPECTED: case(s) \(numbers.joined(separator: ", ")) did not behave as described.")
        }
        if frames.asExpected {
            lines.append(
                "As expected: frames stay on the refresh grid, a stall shows up as dropped frames, "
                    + "and the source stops with the animation.")
        } else {
            lines.append("UNEXPECTED (frames): " + frames.problems.joined(separator: "; ") + ".")
        }
        if countdown.asExpected {
            lines.append("As expected: the countdown skips the deadlines it missed, without a burst, and ends at 0.")
        } else {
            lines.append("UNEXPECTED (countdown): " + countdown.problems.joined(separator: "; ") + ".")
        }
        return lines
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
