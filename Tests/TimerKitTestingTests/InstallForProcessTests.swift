import Foundation
import TimerKit
import TimerKitTesting
import XCTest

/// The XCTest helper: one call puts the whole process on virtual time until the test ends, including
/// tickers created on other threads.
final class InstallForProcessTests: XCTestCase {
    func testTickersCreatedOnAnyThreadUseTheInstalledVirtualTime() {
        let time = VirtualTime.install(for: self, realTimeTickers: .fail)
        XCTAssertTrue(VirtualTime.current === time)
        let log = Log()
        let made = DispatchSemaphore(value: 0)
        let box = TickerBox()
        // A queue the test did not create a task for: still on the installed virtual time.
        DispatchQueue(label: "InstallForProcessTests").async {
            box.ticker = Ticker.schedule(.every(.seconds(1)), on: .dispatch(.global())) { tick in
                log.append("\(tick.index)")
            }
            made.signal()
        }
        made.wait()
        time.advance(by: .seconds(3))
        XCTAssertEqual(log.all, ["1", "2", "3"])
        XCTAssertEqual(TickClock.uptime.now, VirtualTime.start.advanced(by: .seconds(3)))
    }
}

/// Hands a ticker from a queue back to the test.
final class TickerBox: @unchecked Sendable {
    // Invariant: written once on the queue before the semaphore is signalled, read after the wait.
    var ticker: Ticker?
}
