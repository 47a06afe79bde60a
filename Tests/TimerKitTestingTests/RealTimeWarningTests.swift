import Foundation
import Testing
import TimerKitTestSupport
import TimerKitTesting

@testable import TimerKit

/// The trait's warning about tickers created on real time: logged once per creation site, naming it.
@Suite struct RealTimeWarningTests {
    init() { LogCapture.install() }

    @Test func eachRealTimeCreationSiteIsWarnedAboutOnceByName() async throws {
        let line = Log()
        try await VirtualTimeTrait.virtualTime.provideScope(for: Test.current!, testCase: Test.Case.current) {
            for _ in 0..<3 {
                // In the test's own task (so no other test counts it), with the real time base explicitly.
                let ticker = TimeBase.$override.withValue(TimeBase.system) {
                    line.append("\(#line + 1)")
                    return Ticker.schedule(.after(.seconds(60)), on: .dispatch(.global())) { _ in }
                }
                ticker.cancel()
            }
        }
        let site = try #require(line.all.first)
        #expect(line.all == [site, site, site])
        let warnings = LogCapture.lines(containing: "\(#fileID):\(site) ")
        #expect(warnings.count == 1, "once per site: \(warnings)")
        #expect(
            warnings.first?.contains(
                "was created on real time while a test runs on virtual time: advancing will not move it") == true,
            "\(warnings)")
    }
}
