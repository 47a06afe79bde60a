#if canImport(Testing)
    import Testing
    import TimerKit

    /// A Swift Testing trait that runs each test (each case of a parameterized test, each test of a
    /// suite) on a fresh ``VirtualTime``, reachable as ``VirtualTime/current``.
    ///
    /// Everything the test creates — at any point, in any task it creates (child tasks and `Task { }`
    /// inherit it) — uses that virtual time, including rate limiters kept in a `lazy var` and tickers a
    /// view model schedules from a later call. Code reached from elsewhere (a `DispatchQueue.async` block,
    /// `Task.detached`, a run-loop callback) creates tickers on real time: each such creation site is
    /// logged as a debug warning, and with `realTimeTickers: .fail` fails the test when it ends. A real-time
    /// ticker created in another test's task is not this test's business and is ignored.
    ///
    /// A ticker created off every test's task (in a `DispatchQueue.async` block, say) carries no trace of
    /// the test whose code queued that block, so every test watching at that moment counts it: in a
    /// parallel run, another test's such ticker can fail a `.fail` test, naming the other test's creation
    /// site. Run a `.fail` test on its own (`swift test --no-parallel`, or `--filter` it) when the suite
    /// has other tests that create tickers from queues.
    ///
    /// Use `@Test(.virtualTime)` or `@Suite(.virtualTime)`.
    public struct VirtualTimeTrait: TestTrait, SuiteTrait, TestScoping {
        /// What happens when the code under test creates a ticker on real time.
        public let realTimeTickers: VirtualTime.RealTimeTickers

        /// Applied to a suite, the trait applies to each of its tests.
        public var isRecursive: Bool { true }

        /// One scope per test case, so that each case gets its own virtual time.
        public func scopeProvider(for test: Test, testCase: Test.Case?) -> VirtualTimeTrait? {
            testCase == nil ? nil : self
        }

        /// Runs the test case on a fresh virtual time.
        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let time = VirtualTime()
            let id = test.id
            let found = try await time.runWatching(isMine: { Test.current.map { $0.id == id } ?? true }) {
                try await function()
            }
            guard realTimeTickers == .fail else { return }
            for failure in Self.failures(for: found) {
                Issue.record(failure.comment, sourceLocation: failure.sourceLocation)
            }
        }

        /// The issues a `.fail` scope records for the real-time tickers it found: one per creation site,
        /// located at that site.
        static func failures(for found: [RealTimeTicker]) -> [(comment: Comment, sourceLocation: SourceLocation)] {
            found.map { ticker in
                (
                    Comment(rawValue: VirtualTime.failureMessage(ticker)),
                    SourceLocation(fileID: ticker.fileID, filePath: ticker.fileID, line: ticker.line, column: 1)
                )
            }
        }
    }

    extension Trait where Self == VirtualTimeTrait {
        /// Runs the test on a fresh ``VirtualTime`` (see ``VirtualTimeTrait``), warning about tickers
        /// created on real time meanwhile.
        public static var virtualTime: Self { VirtualTimeTrait(realTimeTickers: .warn) }

        /// Runs the test on a fresh ``VirtualTime`` (see ``VirtualTimeTrait``); `.fail` makes each ticker
        /// created on real time meanwhile a test failure.
        public static func virtualTime(realTimeTickers: VirtualTime.RealTimeTickers) -> Self {
            VirtualTimeTrait(realTimeTickers: realTimeTickers)
        }
    }
#endif
