import Foundation
import TimerKitTestSupport
import XCTest

@testable import TimerKit
@testable import TimerKitTesting

/// What `VirtualTime.install(for:)` does when the test ends. Teardown blocks run last-added first, so a
/// block added before `install` runs after install's own teardown and sees its effects.
final class InstallTeardownTests: XCTestCase {
    /// Failures the test expects (matched by a fragment of their text), recorded instead of failing it.
    private let expected = Log()
    private var expectedFragment: String?

    override func setUp() {
        super.setUp()
        LogCapture.install()  // the real-time warnings go to the capture, not to the test run's output
    }

    func testLeftoverTickersAreCancelledWhenTheTestEnds() {
        let box = TickerBox()
        addTeardownBlock {
            XCTAssertEqual(box.ticker?.state, .cancelled, "install's teardown cancelled the leftover ticker")
            XCTAssertNil(VirtualTime.current, "the virtual time is no longer installed")
        }
        let time = VirtualTime.install(for: self)
        box.ticker = Ticker.schedule(.every(.seconds(1)), on: .dispatch(.global())) { _ in }
        time.advance(by: .seconds(2))
        XCTAssertEqual(box.ticker?.fireCount, 2)
        XCTAssertEqual(box.ticker?.state, .running)  // left running: the teardown's business
    }

    func testARealTimeTickerFailsTheTestWithFail() {
        let line = Log()
        addTeardownBlock { [expected] in
            XCTAssertEqual(expected.all.count, 1, "one failure, naming the creation site: \(expected.all)")
            XCTAssertTrue(
                expected.all.first?.contains("InstallTeardownTests.swift:\(line.all.first ?? "?") ") == true,
                "\(expected.all)")
        }
        VirtualTime.install(for: self, realTimeTickers: .fail)
        expectedFragment = "was created on real time while the test ran on virtual time"
        // Only code that passes a time base explicitly can create a real-time ticker here.
        let ticker = TimeBase.$override.withValue(TimeBase.system) {
            line.append("\(#line + 1)")
            return Ticker.schedule(.after(.seconds(60)), on: .dispatch(.global())) { _ in }
        }
        ticker.cancel()
    }

    #if canImport(ObjectiveC)
        override func record(_ issue: XCTIssue) {
            if let fragment = expectedFragment, issue.compactDescription.contains(fragment) {
                expected.append(issue.compactDescription)
            } else {
                super.record(issue)
            }
        }
    #else
        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            if let fragment = expectedFragment, description.contains(fragment) {
                self.expected.append(description)
            } else {
                super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
        }
    #endif
}
