#if canImport(XCTest)
    import XCTest
    import TimerKit

    extension VirtualTime {
        /// Puts the whole process on a fresh virtual time until `testCase` ends, and returns it: one call at
        /// the start of an XCTest test method (or in `setUp`).
        ///
        /// Every ticker, rate limiter, frame source and tick sequence the process creates outside another
        /// `VirtualTime.run` scope uses it — from any thread, queue or task, since XCTest runs one test at a
        /// time. When the test ends the virtual time is removed and its leftover tickers are cancelled.
        /// Tickers created on real time meanwhile (only code that passes a time base explicitly can) are
        /// reported as for the Swift Testing trait: a warning, or with `.fail` a failure.
        ///
        /// - Precondition: no other virtual time is installed for the process.
        @discardableResult
        public static func install(
            for testCase: XCTestCase, realTimeTickers: RealTimeTickers = .warn, file: StaticString = #filePath,
            line: UInt = #line
        ) -> VirtualTime {
            let time = VirtualTime()
            let installed = ProcessWide.slot.withLock { slot -> Bool in
                guard slot == nil else { return false }
                slot = time
                return true
            }
            precondition(
                installed && time.base.installForProcess(),
                "TimerKitTesting: a virtual time is already installed for the process (one per test at a time)")
            let found = Found()
            let observer = VirtualTimeActivity.observe { ticker in
                found.add(ticker)
                return true
            }
            testCase.addTeardownBlock {
                VirtualTimeActivity.stopObserving(observer)
                time.base.uninstallForProcess()
                ProcessWide.slot.withLock { $0 = nil }
                time.base.cancelAllTickers()
                guard realTimeTickers == .fail else { return }
                for ticker in found.all {
                    XCTFail(failureMessage(ticker), file: file, line: line)
                }
            }
            return time
        }
    }
#endif
