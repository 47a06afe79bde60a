import Testing

@testable import TimerKit

/// The shared lifetime rules (`Lifetime`), each function over every input it takes.
@Suite struct LifetimeRuleTests {
    private final class Owner {}

    /// The binding's size, what a release asks for, and which deliveries load the owner. Each check runs on a fresh
    /// instance of the suite.
    @Test func aBindingDecidesWhatAReleaseAndADeliveryDo() {
        Self().aBindingIsOneByteAndFitsInTwoBits()
        Self().releasingAHandleAsksForWhatItsBindingSays()
        Self().aDeliveryLoadsTheOwnerOfBoundItemsOnly()
    }

    func aBindingIsOneByteAndFitsInTwoBits() {
        #expect(MemoryLayout<Lifetime.Binding>.size == 1)
        #expect(Lifetime.Binding.allCases.allSatisfy { $0.rawValue < 4 })
        #expect(Lifetime.Binding.allCases.filter(\.isBound) == [.owner, .target])
        #expect(Lifetime.Binding.allCases.map(\.name) == ["owner", "target", "handle", "view"])
    }

    func releasingAHandleAsksForWhatItsBindingSays() {
        #expect(Lifetime.release(of: .view, ownerReadsNil: true) == .nothing)
        #expect(Lifetime.release(of: .handle, ownerReadsNil: true) == .cancel)
        for bound in [Lifetime.Binding.owner, .target] {
            #expect(Lifetime.release(of: bound, ownerReadsNil: true) == .ownerGone)
            #expect(Lifetime.release(of: bound, ownerReadsNil: false) == .keepIfRunning)
        }
    }

    @Test
    func aReleaseCancelsWhatNothingCouldResume() {
        for state in [TickerState.idle, .running, .paused, .finished, .cancelled] {
            Self().aReleaseCancelsWhatNothingCouldResume(state: state)
        }
    }

    func aReleaseCancelsWhatNothingCouldResume(state: TickerState) {
        let live = !state.isTerminal
        #expect(Lifetime.effect(of: .nothing, in: state) == .none, "state \(state)")
        #expect(Lifetime.effect(of: .cancel, in: state) == (live ? .cancel : .none), "state \(state)")
        #expect(Lifetime.effect(of: .ownerGone, in: state) == (live ? .cancelOwnerGone : .none), "state \(state)")
        let keep: Lifetime.ReleaseEffect = !live || state == .running ? .none : .cancel
        #expect(Lifetime.effect(of: .keepIfRunning, in: state) == keep, "state \(state)")
    }

    func aDeliveryLoadsTheOwnerOfBoundItemsOnly() {
        let owner = Owner()
        var loads = 0
        func load(_ object: AnyObject?) -> AnyObject? {
            loads += 1
            return object
        }
        func describe(_ load: Lifetime.OwnerLoad) -> String {
            switch load {
            case .deliver(let loaded): loaded === owner ? "deliver(owner)" : "deliver(other)"
            case .deliverWithoutOwner: "deliverWithoutOwner"
            case .ownerGone: "ownerGone"
            }
        }
        #expect(describe(Lifetime.load(.owner, owner: load(owner))) == "deliver(owner)")
        #expect(describe(Lifetime.load(.target, owner: load(nil))) == "ownerGone")
        #expect(describe(Lifetime.load(.handle, owner: load(owner))) == "deliverWithoutOwner")
        #expect(describe(Lifetime.load(.view, owner: load(owner))) == "deliverWithoutOwner")
        #expect(loads == 2, "an item that is not bound pays no weak load")
    }

    /// A sweep hands out live owners and stops dead ones, its cursor going round-robin over a changing end. Each check
    /// runs on a fresh instance of the suite.
    @Test func theSweepStopsDeadOwnersRoundRobin() {
        Self().aSweepHandsOutLiveOwnersAndStopsDeadOnes()
        Self().theCursorGoesRoundRobinOverAChangingEnd()
    }

    func aSweepHandsOutLiveOwnersAndStopsDeadOnes() {
        let owner = Owner()
        var sweep = Lifetime.Sweep<Int>()
        #expect(sweep.isEmpty)
        let skipped = sweep.note(Lifetime.sweepVerdict(isLiveBound: false, owner: nil))
        let kept = sweep.note(Lifetime.sweepVerdict(isLiveBound: true, owner: owner))
        let stopped = sweep.note(Lifetime.sweepVerdict(isLiveBound: true, owner: nil))
        #expect(!skipped && !kept && stopped)
        #expect(sweep.alive.count == 1 && sweep.alive[0] === owner)
        #expect(!sweep.isEmpty)
    }

    func theCursorGoesRoundRobinOverAChangingEnd() {
        var cursor = Lifetime.SweepCursor()
        #expect(cursor.next(below: 0) == nil)
        let first = (0..<5).compactMap { _ in cursor.next(below: 3) }
        #expect(first == [0, 1, 2, 0, 1])
        // The end shrinks under the cursor: it wraps within the new end.
        #expect(cursor.next(below: UInt32(2)) == 0)
        #expect(cursor.next(below: UInt32(10)) == 1)
        cursor.reset()
        #expect(cursor.next(below: 4) == 0)
        #expect(Lifetime.SweepCursor.steps(limit: 2, end: 10) == 2)
        #expect(Lifetime.SweepCursor.steps(limit: nil, end: 10) == 10)
        #expect(Lifetime.SweepCursor.steps(limit: 20, end: 3) == 3)
    }

    /// The never-fires rule and the owner-gone line. Each check runs on a fresh instance of the suite.
    @Test func theDiagnosticRulesSayWhatTheySee() {
        Self().oneNeverFiresRule()
        Self().theOwnerGoneLineNamesTheOwnerAndTheContext()
    }

    func oneNeverFiresRule() {
        let window = Lifetime.neverFiresWindowNanoseconds
        #expect(Duration.nanoseconds(window) == Lifetime.neverFiresWindow)
        #expect(Lifetime.neverFires(binding: .handle, state: .running, deliveries: 0, age: window - 1))
        #expect(!Lifetime.neverFires(binding: .handle, state: .running, deliveries: 0, age: window))
        #expect(!Lifetime.neverFires(binding: .handle, state: .running, deliveries: 1, age: 0))
        #expect(!Lifetime.neverFires(binding: .handle, state: .paused, deliveries: 0, age: 0))
        #expect(!Lifetime.neverFires(binding: .handle, state: .cancelled, deliveries: 0, age: 0))
        #expect(!Lifetime.neverFires(binding: .owner, state: .running, deliveries: 0, age: 0))
        let warning = Lifetime.neverFiresWarning("ticker (every 1.0 seconds)", site: "A.swift:3", handleType: "Ticker")
        #expect(warning.contains("ticker (every 1.0 seconds) created at A.swift:3"))
        #expect(warning.contains("will never fire") && warning.contains("Keep the returned Ticker"))
    }

    func theOwnerGoneLineNamesTheOwnerAndTheContext() {
        #expect(
            Lifetime.ownerGoneLine("ticker", site: "A.swift:3", binding: .owner, ownerType: "Screen", context: "main")
                == "TimerKit: ticker created at A.swift:3 stopped because its owner Screen went away (main)")
        #expect(
            Lifetime.ownerGoneLine("ticker", site: "A.swift:3", binding: .target, ownerType: "Screen", context: "q")
                .contains("its target Screen went away"))
        #expect(
            Lifetime.ownerGoneLine("frame subscription", site: "B:1", binding: .owner, ownerType: nil, context: "q")
                .contains("frame subscription created at B:1 stopped because its owner went away"))
    }
}
