import Foundation
import TimerKit

// `swift run timerkit-demo` prints a report; `swift run timerkit-demo --json` prints the same results as
// one JSON object: `cases` (the leak cases), `frames` (frame ticks) and `countdown` (async ticks). Exits 1
// if something did not behave as described (a TimerKit binding leaked, the Foundation.Timer control did
// not, a frame or countdown check failed), 2 on a bad argument.

let arguments = CommandLine.arguments.dropFirst()
if let unknown = arguments.first(where: { $0 != "--json" }) {
    FileHandle.standardError.write(
        Data("timerkit-demo: unknown argument \(unknown)\nusage: timerkit-demo [--json]\n".utf8))
    exit(2)
}

let timing = Timing()
let results = Scenario.all(timing: timing).map { $0.run() }
let frames = runFrameDemo(timing: FrameTiming())
let countdown = runCountdownDemo(timing: CountdownTiming())
let report = Report(results: results, timing: timing, frames: frames, countdown: countdown)

if arguments.contains("--json") {
    print(try report.json())
} else {
    print(report.text(survivors: Scenario.survivorsStillTicking(), diagnostics: TickerDiagnostics.report()))
}
exit(report.allAsExpected ? 0 : 1)
