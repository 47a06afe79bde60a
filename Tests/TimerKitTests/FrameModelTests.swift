import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// Seeded, model-based random testing of frame subscriptions: random programs of subscribe (handle-owned
/// or owner-bound, divisors 1–3) / pause / resume / cancel / read state / release handle / release owner /
/// advance / stall the context, run under virtual time on one source and checked after every step against `FrameModel`
/// (Support/FrameModel.swift): every delivery (refresh, index, dropped frames), states, whether the source
/// runs, how many subscribers and handlers are still held, the storage's invariants, and the "never fires"
/// warnings.
///
/// A disagreement names the program's seed and the shortest program found that still fails, with the
/// command that replays it:
///
///     TIMERKIT_FRAME_MODEL_PROGRAM=<seed> swift test --filter FrameModelTests
///
/// `TIMERKIT_FRAME_MODEL_PROGRAMS` and `TIMERKIT_FRAME_MODEL_SEED` run more (or other) programs.
@Suite struct FrameModelTests {
    @Test func randomProgramsAgreeWithTheModel() throws {
        let covered = try FrameModelRun.checkRandomPrograms().get()
        if FrameModelRun.settings.program == nil {
            let wanted: Set<String> = [
                "delivered", "dropped-owner-deliveries-stop", "stalled", "frames-dropped", "warned", "paused",
                "resumed", "cancelled",
                "handle-released-running", "handle-released-paused", "owner-released", "state-read", "paged",
            ]
            #expect(wanted.isSubset(of: covered), "not exercised: \(wanted.subtracting(covered).sorted())")
        }
    }

    /// The check can fail, and the failure shrinks to the few steps that show it: a model that ignores
    /// `pause()`, or that keeps the frame grid across a pause, disagrees with TimerKit.
    @Test
    func aModelMutantIsCaughtAndShrunk() throws {
        for mutant in [FrameModel.Mutant.ignoresPause, .resumeKeepsGrid] {
            try Self().aModelMutantIsCaughtAndShrunk(mutant)
        }
    }

    func aModelMutantIsCaughtAndShrunk(_ mutant: FrameModel.Mutant) throws {
        let shrunk = try #require(FrameModelRun.shrunkFailure(with: mutant), "mutant \(mutant)")
        #expect(shrunk.operations.count <= 6, "\(shrunk.operations) \(shrunk.failure); mutant \(mutant)")
        #expect(shrunk.operations.contains { if case .pause = $0 { true } else { false } }, "mutant \(mutant)")
        #expect(
            FrameModelRun.check(shrunk.operations) == nil, "TimerKit itself agrees with the model; mutant \(mutant)")
    }
}

/// Runs one frame program under virtual time and checks it against the model after every step.
enum FrameModelRun: ModelChecked {
    static let name = "frame"
    static let suite = "FrameModelTests"
    static let settings = ModelCheckSettings(
        prefix: "TIMERKIT_FRAME_MODEL", programs: 60, length: 120, seed: 0xF4A3_E5EE_D000_0001)

    static func random(seed: UInt64, length: Int) -> [FrameModelOperation] {
        FrameModelOperation.random(seed: seed, length: length)
    }

    static func removing(_ program: [FrameModelOperation], _ range: Range<Int>) -> [FrameModelOperation] {
        FrameModelOperation.removing(range, from: program)
    }

    /// An owner: the test or nothing holds it; with `.ownerHoldsHandle` it keeps its own handle.
    final class Owner: Sendable {
        let handle = ContractBox<FrameSubscription>()
    }

    static func check(
        _ program: [FrameModelOperation], mutant: FrameModel.Mutant?, covered: inout Set<String>
    ) -> ModelFailure? {
        LogCapture.install()
        let time = VirtualTime()
        let site = contractUniqueFileID("FrameModel")
        var model = FrameModel(warnsAboutMistakes: TickerDiagnostics.warnsAboutMistakes, mutant: mutant ?? .none)
        let handlers = LifetimeTracker()
        let source = time.run { FrameSource.software(refreshRate: 60, on: FrameTestSupport.context) }
        let origin = time.now
        var handles: [FrameSubscription?] = []
        var owners: [Owner?] = []
        var recorders: [Recorder<FrameModelDelivery>] = []
        defer {
            handles.forEach { $0?.cancel() }
            owners.forEach { $0?.handle.value?.cancel() }
        }
        // Pages of subscriber storage the source had after the last step.
        var allocatedPages = 0
        for (step, operation) in program.enumerated() {
            let number = operation.subscription
            let exists = number.map { $0 < handles.count } ?? true
            switch operation {
            case let .subscribe(binding, divisor):
                let recorder = Recorder<FrameModelDelivery>()
                let probe = HandlerProbe(handlers)
                let range = FrameRateRange(minimum: 60 / Double(divisor), maximum: 60, preferred: 60 / Double(divisor))
                let deliver: @Sendable (FrameTick) -> Void = { frame in
                    _ = probe
                    let offset = frame.deadline.nanoseconds - origin.nanoseconds
                    recorder.append(
                        FrameModelDelivery(
                            refresh: (offset * 60 + 500_000_000) / 1_000_000_000, index: frame.index,
                            dropped: frame.droppedFrames))
                }
                let owner = binding.isBound ? Owner() : nil
                let handle = time.run {
                    if let owner {
                        source.subscribe(range, owner: owner, fileID: site) { _, frame in deliver(frame) }
                    } else {
                        source.subscribe(range, fileID: site) { frame in deliver(frame) }
                    }
                }
                if handle.frameInterval != divisor {
                    return ModelFailure(step: step, message: "divisor \(divisor) snapped to \(handle.frameInterval)")
                }
                switch binding {
                case .handle, .owner: handles.append(handle)
                case .ownerOnly: handles.append(nil)
                case .ownerHoldsHandle:
                    owner!.handle.set(handle)
                    handles.append(nil)
                }
                owners.append(owner)
                recorders.append(recorder)
            case .pause(let number) where exists:
                covered.insert("paused")
                handles[number]?.pause()
            case .resume(let number) where exists:
                covered.insert("resumed")
                handles[number]?.resume()
            case .cancel(let number) where exists:
                covered.insert("cancelled")
                handles[number]?.cancel()
            case .readState(let number) where exists:
                if let handle = handles[number] {
                    covered.insert("state-read")
                    let state = handle.state
                    var expected = model
                    expected.apply(operation)
                    if state != expected.subscriptions[number].state {
                        return ModelFailure(
                            step: step,
                            message: "#\(number) reads \(state), the model says "
                                + "\(expected.subscriptions[number].state)")
                    }
                }
            case .releaseHandle(let number) where exists:
                if let handle = handles[number] {
                    covered.insert(handle.state == .paused ? "handle-released-paused" : "handle-released-running")
                    handles[number] = nil
                }
            case .releaseOwner(let number) where exists:
                if owners[number] != nil { covered.insert("owner-released") }
                owners[number] = nil
            case .advance(let refreshes):
                let target = origin.nanoseconds + FrameModel.offset(ofRefresh: model.now + Int64(refreshes))
                time.advance(by: .nanoseconds(max(0, target - time.now.nanoseconds)))
            case .stall(let refreshes):
                // A one-shot on the source's context, half a refresh from now, whose handler moves virtual time
                // on while it blocks the context.
                let target =
                    origin.nanoseconds + FrameModel.offset(ofRefresh: model.now + Int64(refreshes))
                    + FrameModel.stallOvershoot
                let clock = time.clock
                let stall = time.run {
                    Ticker.schedule(.after(.nanoseconds(FrameTestSupport.interval / 2)), on: FrameTestSupport.context) {
                        _ in clock.advance(by: .nanoseconds(target - clock.now()))
                    }
                }
                time.advance(by: .nanoseconds(target - time.now.nanoseconds))
                if stall.state != .finished { return ModelFailure(step: step, message: "the stall did not run") }
                covered.insert("stalled")
            default:
                break
            }
            model.apply(operation)
            if let failure = compare(model, source: source, recorders: recorders, handlers: handlers, step: step) {
                return failure
            }
            let usage = source.storageUsage
            if usage.allocatedPages > 1 { covered.insert("paged") }
            if usage.emptyPages > 0, source.subscriberCount > 0 { covered.insert("page-emptied") }
            if usage.allocatedPages < allocatedPages, source.subscriberCount > 0 { covered.insert("page-freed") }
            allocatedPages = usage.allocatedPages
            if model.subscriptions.contains(where: { !$0.deliveries.isEmpty }) { covered.insert("delivered") }
            if model.subscriptions.contains(where: { $0.deliveries.contains { $0.dropped > 0 } }) {
                covered.insert("frames-dropped")
            }
            if model.subscriptions.contains(where: { !$0.ownerAlive && $0.binding.isBound && !$0.deliveries.isEmpty }) {
                covered.insert("dropped-owner-deliveries-stop")
            }
        }
        let warnings = LogCapture.take(containing: site).filter { $0.contains("never fire") }.count
        if warnings > 0 { covered.insert("warned") }
        if warnings != model.expectedWarnings {
            return ModelFailure(
                step: program.count - 1,
                message: "\(warnings) \"never fires\" warnings, the model expects \(model.expectedWarnings)")
        }
        return nil
    }

    private static func compare(
        _ model: FrameModel, source: FrameSource, recorders: [Recorder<FrameModelDelivery>],
        handlers: LifetimeTracker, step: Int
    ) -> ModelFailure? {
        for (number, recorder) in recorders.enumerated() where recorder.values != model.subscriptions[number].deliveries
        {
            return ModelFailure(
                step: step,
                message: "#\(number) got \(recorder.values), the model says "
                    + "\(model.subscriptions[number].deliveries)")
        }
        if let broken = source.storageInvariantViolation() {
            return ModelFailure(step: step, message: "storage: \(broken)")
        }
        let live = model.liveCount
        let range = live...(live + model.doomedCount)
        if !range.contains(source.subscriberCount) {
            return ModelFailure(step: step, message: "\(source.subscriberCount) subscribers, the model says \(range)")
        }
        if !range.contains(handlers.live) {
            return ModelFailure(step: step, message: "\(handlers.live) handlers held, the model says \(range)")
        }
        if model.surelyRunning != source.isRunning, model.surelyRunning || !model.maybeRunning {
            return ModelFailure(
                step: step, message: "the source runs: \(source.isRunning), the model says \(model.surelyRunning)")
        }
        return nil
    }

    /// Captured by a handler: counts the handlers TimerKit still holds.
    final class HandlerProbe: Sendable {
        let tracker: LifetimeTracker

        init(_ tracker: LifetimeTracker) {
            self.tracker = tracker
            tracker.instanceMade()
        }

        deinit { tracker.instanceGone() }
    }
}
