import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

final class DiagnosedScreen: Sendable {
    func tick(_ tick: Tick) {}
}

final class OwnerLeavingScreen: Sendable {}

// Invariant: `ticker` is set once by the test's thread, before any tick can run, and never read by the
// ticker's handler (tests only).
final class HandleHoldingScreen: @unchecked Sendable {
    var ticker: Ticker?
}

@Suite struct DiagnosticsTests {
    init() { LogCapture.install() }

    @Test func liveTickersListCreationSiteOwnerContextIntervalAndFireCount() throws {
        let time = VirtualTime()
        let screen = DiagnosedScreen()
        let queue = DispatchQueue(label: "diagnostics.queue")
        let line = #line + 2
        let ticker = time.run {
            // Target–action is public on the main actor only; its binding is the same on every context.
            Ticker.makeBound(
                .every(.seconds(2)), on: .dispatch(queue), owner: screen, binding: .target, startsImmediately: true,
                fileID: #fileID, line: #line - 3
            ) { screen, tick in screen.tick(tick) }
        }
        time.advance(by: .seconds(5))
        let live = time.run { TickerDiagnostics.liveTickers() }
        let entry = try #require(live.first)
        #expect(live.count == 1)
        #expect(entry.fileID == #fileID)
        #expect(entry.line == line)
        #expect(entry.ownerType == "DiagnosedScreen")
        #expect(entry.binding == "target")
        #expect(entry.context.contains("diagnostics.queue"))
        #expect(entry.schedule.interval == .seconds(2))
        #expect(entry.fireCount == 2)
        #expect(entry.state == .running)
        let report = time.run { TickerDiagnostics.report() }
        #expect(report.contains("DiagnosticsTests.swift:\(line)"))
        ticker.cancel()
        #expect(time.run { TickerDiagnostics.liveTickers() }.isEmpty)
    }

    @Test func stoppingBecauseTheOwnerWentAwayIsLoggedWhenAsked() {
        LogCapture.install()
        TickerDiagnostics.logsOwnerRelease = true
        let time = VirtualTime()
        var owner: OwnerLeavingScreen? = OwnerLeavingScreen()
        time.run {
            Ticker.schedule(.every(.seconds(1)), on: .dispatch(.global()), owner: owner!) { _, _ in }
        }
        time.advance(by: .seconds(1))
        owner = nil
        time.advance(by: .seconds(1))
        let lines = LogCapture.lines(containing: "OwnerLeavingScreen")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("went away") == true)
        #expect(lines.first?.contains("DiagnosticsTests.swift") == true)
    }

    @Test func anOwnerThatHeldItsHandleIsLoggedWhenItGoes() {
        LogCapture.install()
        TickerDiagnostics.logsOwnerRelease = true
        let time = VirtualTime()
        var owner: HandleHoldingScreen? = HandleHoldingScreen()
        time.run {
            owner!.ticker = Ticker.schedule(.every(.seconds(1)), on: .dispatch(.global()), owner: owner!) { _, _ in }
        }
        owner = nil
        let lines = LogCapture.lines(containing: "HandleHoldingScreen")
        #expect(lines.count == 1)
        #expect(time.base.engine(for: .dispatch(.global())).liveCount() == 0)
    }

    @Test func clampedInputIsWarnedAbout() {
        LogCapture.install()
        let time = VirtualTime()
        let line = #line + 1
        let ticker = time.run { Ticker.schedule(.every(.microseconds(20)), on: .dispatch(.global())) { _ in } }
        ticker.cancel()
        #expect(LogCapture.lines(containing: "DiagnosticsTests.swift:\(line)").contains { $0.contains("100 µs") })
    }
}
