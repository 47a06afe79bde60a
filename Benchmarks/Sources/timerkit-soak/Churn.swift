import Dispatch
import Foundation
import TimerKit

/// Threads that churn the population at a steady rate, each over its own stripe: every 10 ms a batch
/// that refills the slots handlers emptied, resumes what it paused 0.2–1 s before, then runs its share
/// of random operations (replace 35 %, release 20 %, cancel 15 %, pause 15 %, fire 15 %).
final class Churn: Sendable {
    private let threads: [ChurnThread]

    init(population: Population, opsPerSecond: Int, seed: UInt64) {
        let perThread = Double(opsPerSecond) / Double(population.stripes.count)
        threads = population.stripes.enumerated().map { index, stripe in
            ChurnThread(
                name: "soak.churn.\(index)", population: population, stripe: stripe, opsPerSecond: perThread,
                seed: SplitMix.mix(seed &+ UInt64(index + 1)))
        }
    }

    /// Stops every thread after its current batch and waits for them.
    func stop() {
        threads.forEach { $0.requestStop() }
        threads.forEach { $0.join() }
    }
}

/// One churn thread.
private final class ChurnThread: Sendable {
    private let stopRequest = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    init(name: String, population: Population, stripe: Stripe, opsPerSecond: Double, seed: UInt64) {
        let stopRequest = stopRequest
        let exited = exited
        let thread = Thread {
            var worker = ChurnWorker(population: population, stripe: stripe, random: SplitMix(seed: seed))
            let period = 0.010
            let perBatch = opsPerSecond * period
            var budget = 0.0
            var next = DispatchTime.now()
            repeat {
                worker.refill()
                worker.resumeDue()
                budget += perBatch
                while budget >= 1 {
                    budget -= 1
                    worker.randomOperation()
                }
                // Absolute deadlines; a batch that falls behind by more than a period is not made up.
                next = next + period
                if next < DispatchTime.now() - period { next = DispatchTime.now() }
            } while stopRequest.wait(timeout: next) == .timedOut
            exited.signal()
        }
        thread.name = name
        thread.start()
    }

    func requestStop() { stopRequest.signal() }

    func join() { exited.wait() }
}

/// A churn thread's state: its random generator and the tickers it paused.
private struct ChurnWorker {
    let population: Population
    let stripe: Stripe
    var random: SplitMix
    /// Paused by this thread, in the order they are due to be resumed.
    var paused: [(tag: SlotTag, resumeAt: DispatchTime)] = []
    var pausedHead = 0

    mutating func refill() {
        for slot in stripe.takeRefills() {
            population.create(slot: slot, using: &random)
            population.tally.count(.refill)
        }
    }

    mutating func resumeDue() {
        let now = DispatchTime.now()
        while pausedHead < paused.count, paused[pausedHead].resumeAt <= now {
            let (entry, tag) = stripe.peek(paused[pausedHead].tag.slot)
            if tag == paused[pausedHead].tag, let ticker = entry.ticker {
                ticker.resume()
                population.tally.count(.resume)
            }
            pausedHead += 1
        }
        if pausedHead > 1_024, pausedHead * 2 > paused.count {
            paused.removeFirst(pausedHead)
            pausedHead = 0
        }
    }

    mutating func randomOperation() {
        let slot = stripe.first + stripe.width * Int.random(in: 0..<stripe.count, using: &random)
        let roll = Int.random(in: 0..<100, using: &random)
        let (entry, tag) = stripe.peek(slot)
        let ticker = entry.ticker
        switch roll {
        case ..<20 where !entry.isEmpty:
            let released = stripe.release(tag)
            released.cancelTask()
            population.tally.count(.release)
        case 20..<35 where ticker != nil:
            ticker?.cancel()
            population.create(slot: slot, using: &random)
            population.tally.count(.cancel)
        case 35..<50 where ticker != nil:
            ticker?.pause()
            let delay = Double.random(in: 0.2...1.0, using: &random)
            paused.append((tag, DispatchTime.now() + delay))
            population.tally.count(.pause)
        case 50..<65 where ticker != nil:
            ticker?.fire()
            population.tally.count(.fire)
        default:
            population.create(slot: slot, using: &random)
            population.tally.count(.replace)
        }
    }
}
