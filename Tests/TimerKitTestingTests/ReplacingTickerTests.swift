import Foundation
import Synchronization
import Testing
import TimerKit
import TimerKitTesting

// Replacing a stored owner-bound ticker: `self.countdown = Ticker.schedule(…, owner: self)` done again
// stops the countdown it replaces, on every form that binds an owner; handles that are discarded or kept
// elsewhere never stop one another.

/// The docs' "resend code" model, as an app writes it, with every value it showed.
@MainActor private final class ResendModel {
    private(set) var shown: [Int] = []
    private(set) var countdownsEnded = 0
    var secondsLeft: Int { shown.last ?? 0 }
    private(set) var countdown: Ticker?

    func codeSent() {
        shown.append(30)
        countdown = Ticker.schedule(.countdown(from: 30), owner: self) { model, tick in
            model.shown.append(tick.remaining ?? 0)
            if tick.isLast { model.countdownsEnded += 1 }
        }
    }
}

/// A main-actor model that starts short one-shots for itself without keeping them (fire and forget),
/// and keeps others in an array.
@MainActor private final class Flasher {
    private(set) var flashes: [Int] = []
    private(set) var kept: [Ticker] = []

    func flash(_ number: Int) {
        Ticker.schedule(.after(.seconds(1)), owner: self) { flasher, _ in flasher.flashes.append(number) }
    }

    func record(_ number: Int) { flashes.append(number) }

    func keep(_ number: Int) {
        kept.append(Ticker.schedule(.after(.seconds(1)), owner: self) { flasher, _ in flasher.flashes.append(number) })
    }
}

/// An actor that restarts its polling with a new interval by assigning a new ticker.
private actor IntervalPoller {
    private(set) var ticks: [String] = []
    private var poll: Ticker?

    func poll(every seconds: Int, named name: String) {
        poll = Ticker.schedule(.every(.seconds(seconds)), owner: self) { poller, _ in
            poller.ticks.append(name)
        }
    }
}

/// A main-actor model restarting a target–action ticker with another interval.
@MainActor private final class Blinker {
    private(set) var blinks: [String] = []
    private var name = ""
    private var ticker: Ticker?

    func blink(every seconds: Int, named name: String) {
        self.name = name
        ticker = Ticker.schedule(.every(.seconds(seconds)), target: self, action: Blinker.blinked)
    }

    func blinked(_ tick: Tick) { blinks.append(name) }
}

/// A Sendable owner whose handle to a ticker on a dispatch context is replaced (the `on:` form).
private final class QueuePoller: Sendable {
    let ticks = Log()
    private let ticker = Mutex<Ticker?>(nil)
    let queue = DispatchQueue(label: "ReplacingTickerTests.queue")

    func poll(every seconds: Int, named name: String) {
        let new = Ticker.schedule(.every(.seconds(seconds)), on: .dispatch(queue), owner: self) { poller, _ in
            poller.ticks.append(name)
        }
        // The old handle is released here, on this thread, right after the new ticker was made.
        _ = ticker.withLock { old in
            defer { old = new }
            return old
        }
    }
}

@Suite(.virtualTime) @MainActor struct ReplacingTickerTests {
    let time = VirtualTime.current!

    @Test func resendingBeforeTheEndShowsOneCountdown() async {
        let model = ResendModel()
        model.codeSent()
        await time.advance(by: .seconds(10))
        #expect(model.secondsLeft == 20)
        model.codeSent()  // "resend" tapped with 20 s left: the new countdown replaces the first
        await time.advance(by: .seconds(25))
        // One countdown: 30 … 20, then 30 again, one value per second, never the old one's values.
        #expect(model.shown == Array((20...30).reversed()) + Array((5...30).reversed()))
        #expect(model.countdownsEnded == 0)
        await time.advance(by: .seconds(5))
        #expect(model.secondsLeft == 0)
        #expect(model.countdownsEnded == 1)
        #expect(model.countdown?.state == .finished)
    }

    @Test func resendingAfterTheEndStartsAgain() async {
        let model = ResendModel()
        model.codeSent()
        await time.advance(by: .seconds(30))
        #expect(model.countdown?.state == .finished)
        model.codeSent()
        await time.advance(by: .seconds(30))
        #expect(model.countdownsEnded == 2)
        #expect(model.shown == Array((0...30).reversed()) + Array((0...30).reversed()))
    }

    @Test func tickersWhoseHandlesAreDiscardedOrKeptAllRun() async {
        let flasher = Flasher()
        for number in 1...3 { flasher.flash(number) }
        for number in 4...6 { flasher.keep(number) }
        await time.advance(by: .seconds(1))
        #expect(flasher.flashes == [1, 2, 3, 4, 5, 6])
    }

    @Test func replacingOneOwnersTickerLeavesAnotherOwnersAlone() async {
        let (first, second) = (ResendModel(), ResendModel())
        first.codeSent()
        second.codeSent()
        await time.advance(by: .seconds(10))
        first.codeSent()
        #expect(second.countdown?.state == .running)
        await time.advance(by: .seconds(20))
        #expect(second.countdownsEnded == 1)
        #expect(first.countdownsEnded == 0)
        #expect(first.secondsLeft == 10)
    }

    @Test func droppingAStoredHandleWithoutReplacingItKeepsTheTickerRunning() async {
        let flasher = Flasher()
        var ticker: Ticker? = Ticker.schedule(.every(.seconds(1)), owner: flasher) { flasher, tick in
            flasher.record(tick.index)
        }
        await time.advance(by: .seconds(1))
        ticker = nil  // no ticker replaces it: as in 1.0, it lives until its owner goes
        await time.advance(by: .seconds(2))
        #expect(ticker == nil)
        #expect(flasher.flashes == [1, 2, 3])
    }

    @Test func anActorAssigningANewTickerStopsTheOldOne() async {
        let poller = IntervalPoller()
        await poller.poll(every: 1, named: "fast")
        await time.advance(by: .seconds(3))
        await poller.poll(every: 5, named: "slow")
        await time.advance(by: .seconds(10))
        #expect(await poller.ticks == ["fast", "fast", "fast", "slow", "slow"])
    }

    @Test func aTargetActionTickerAssignedAgainStopsTheOldOne() async {
        let blinker = Blinker()
        await expectOnlyTheNewTickerAfterReplacing(start: blinker.blink(every:named:)) { blinker.blinks }
    }

    @Test func aTickerOnAContextAssignedAgainStopsTheOldOne() async {
        let poller = QueuePoller()
        await expectOnlyTheNewTickerAfterReplacing(start: poller.poll(every:named:)) { poller.ticks.all }
    }

    /// Starts "fast" every second, assigns "slow" every 3 s in its place 2 s later, and expects only the
    /// new ticker's ticks from then on.
    private func expectOnlyTheNewTickerAfterReplacing(
        start: (Int, String) -> Void, seen: () -> [String]
    ) async {
        start(1, "fast")
        await time.advance(by: .seconds(2))
        start(3, "slow")
        await time.advance(by: .seconds(6))
        #expect(seen() == ["fast", "fast", "slow", "slow"])
    }
}
