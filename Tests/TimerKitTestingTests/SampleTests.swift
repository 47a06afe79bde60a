import Foundation
import Testing
import TimerKit
import TimerKitTesting

// Sample tests: the way an app tests its timer code on virtual time. The types under test are written as
// an app would write them, with no clock injected.

// MARK: A view model

@MainActor final class ResendCodeModel {
    private(set) var secondsLeft = 0
    private(set) var canResend = true
    private var countdown: Ticker?

    func codeSent() {
        canResend = false
        secondsLeft = 30
        countdown = Ticker.schedule(.countdown(from: 30, every: .seconds(1)), owner: self) { model, tick in
            model.secondsLeft = tick.remaining ?? 0
            if tick.isLast { model.canResend = true }
        }
    }
}

// MARK: A debouncer (the rate-limiting guide's search model, unchanged)

@MainActor final class SearchModel {
    private(set) var results: [String] = []
    lazy var queries = Debouncer<String>(interval: .milliseconds(300), owner: self) { model, query in
        model.search(query)
    }

    func textChanged(_ text: String) { queries.send(text) }
    func search(_ query: String) { results = [query] }
}

// MARK: An async poller

actor StatusPoller {
    private(set) var fetched: [TickInstant] = []

    /// Polls every 30 s, for ever (until the task is cancelled).
    func run() async {
        for await _ in Ticker.ticks(.every(.seconds(30))) {
            fetched.append(TickClock.uptime.now)  // stands for a network call
        }
    }
}

@Suite(.virtualTime) @MainActor struct SampleTests {
    let time = VirtualTime.current!

    @Test func theResendButtonComesBackAfterThirtySeconds() async {
        let model = ResendCodeModel()
        model.codeSent()
        await time.advance(by: .seconds(10))
        #expect(model.secondsLeft == 20)
        #expect(!model.canResend)
        await time.advance(by: .seconds(20))
        #expect(model.secondsLeft == 0)
        #expect(model.canResend)
    }

    @Test func searchRunsOnceTheTypingPauses() async {
        let model = SearchModel()
        // The debouncer is a lazy var: made at the first keystroke, inside the test, so on virtual time.
        for text in ["s", "sw", "swi"] {
            model.textChanged(text)
            await time.advance(by: .milliseconds(100))
        }
        await time.advance(by: .milliseconds(199))
        #expect(model.results.isEmpty, "299 ms after the last keystroke")
        await time.advance(by: .milliseconds(1))
        #expect(model.results == ["swi"])
    }

    @Test func thePollerFetchesEveryThirtySeconds() async {
        let poller = StatusPoller()
        let polling = Task { await poller.run() }
        await time.waitForPendingTickers()  // the poller waits for its first deadline
        await time.advance(by: .seconds(95))
        // Each fetch ran at its own deadline before time moved on: on every run, the same three instants.
        #expect(await poller.fetched == [30, 60, 90].map { VirtualTime.start.advanced(by: .seconds($0)) })
        polling.cancel()
        await polling.value
    }
}
