import Dispatch
import Foundation
import TimerKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// What a running software frame source costs in CPU, side by side with a raw repeating
// `DispatchSourceTimer` at the same rate whose handler does nothing but count, and a repeating TimerKit
// ticker at the same rate (the engine's own floor). Each kind runs alone for a few seconds of real time on
// one serial queue, with one subscriber that counts; the process's CPU time (user + system, getrusage) over
// that span is divided by the wall time and by the callbacks. Kinds are interleaved round by round, and an
// idle span gives the process's own background cost.
//
//   swift run -c release --package-path Benchmarks/FrameProbe frame-cpu [seconds per span] [rounds]

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 3
let rounds = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 3
let rates: [Double] = [60, 120]
/// `FRAME_CPU_ONLY=<kind>` (idle, raw, ticker, oneShots, frames) runs that kind alone, for a profiler.
let only = ProcessInfo.processInfo.environment["FRAME_CPU_ONLY"]

/// The process's CPU time so far (user + system), in nanoseconds.
func cpuNanoseconds() -> Int64 {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    func nanoseconds(_ time: timeval) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_usec) * 1_000 }
    return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
}

/// A callback counter written on the probe's queue only and read after the span has stopped.
final class Counter: @unchecked Sendable {  // Invariant: written on one serial queue; read after it drained.
    var value = 0
}

/// A chain of one-shot tickers, each made by its predecessor's handler for the next multiple of `interval`
/// after the first: what the software frame driver did per refresh, without the frame source around it.
final class OneShotChain: @unchecked Sendable {  // Invariant: `pending` only under `lock`; `counter` on the queue.
    let interval: Int
    let counter: Counter
    let origin = DispatchTime.now().uptimeNanoseconds
    let lock = NSLock()
    var pending: Ticker?
    var stopped = false
    var index = 0

    init(interval: Int, counter: Counter) {
        self.interval = interval
        self.counter = counter
    }

    func next() {
        index += 1
        let due = origin + UInt64(index * interval)
        let delay = Int(max(0, Int64(due) - Int64(DispatchTime.now().uptimeNanoseconds)))
        let ticker = Ticker.schedule(.after(.nanoseconds(delay)), on: .dispatch(queue)) { [self] _ in
            counter.value += 1
            next()
        }
        lock.lock()
        defer { lock.unlock() }
        if stopped { ticker.cancel() } else { pending = ticker }
    }

    func stop() {
        lock.lock()
        stopped = true
        let last = pending
        lock.unlock()
        last?.cancel()
    }
}

enum Kind: String, CaseIterable {
    static var measured: [Kind] { allCases.filter { only == nil || "\($0)" == only } }

    case idle = "idle (no timer)"
    case raw = "raw DispatchSourceTimer"
    case ticker = "TimerKit repeating ticker"
    case oneShots = "TimerKit one-shot per tick"
    case frames = "FrameSource.software"
}

struct Span {
    let cpu: Int64
    let wall: Int64
    let callbacks: Int
}

let queue = DispatchQueue(label: "frame-cpu")

/// Runs `kind` at `rate` for `seconds` of real time and returns its CPU and callbacks.
func measure(_ kind: Kind, rate: Double) -> Span {
    let counter = Counter()
    let interval = Int((1e9 / rate).rounded())
    var stop: () -> Void = {}
    let cpuStart = cpuNanoseconds()
    let wallStart = DispatchTime.now().uptimeNanoseconds
    switch kind {
    case .idle:
        break
    case .raw:
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(
            deadline: .now() + .nanoseconds(interval), repeating: .nanoseconds(interval), leeway: .nanoseconds(0))
        timer.setEventHandler { counter.value += 1 }
        timer.resume()
        stop = { timer.cancel() }
    case .ticker:
        let ticker = Ticker.schedule(.every(.nanoseconds(interval)), on: .dispatch(queue)) { _ in counter.value += 1 }
        stop = { ticker.cancel() }
    case .oneShots:
        let chain = OneShotChain(interval: interval, counter: counter)
        chain.next()
        stop = { chain.stop() }
    case .frames:
        let subscription = FrameSource.software(refreshRate: rate, on: .dispatch(queue)).subscribe { _ in
            counter.value += 1
        }
        stop = { subscription.cancel() }
    }
    Thread.sleep(forTimeInterval: seconds)
    stop()
    queue.sync {}
    let span = Span(
        cpu: cpuNanoseconds() - cpuStart, wall: Int64(DispatchTime.now().uptimeNanoseconds - wallStart),
        callbacks: counter.value)
    return span
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

print("CPU of one running source and of timers at the same rate, \(rounds) rounds of \(seconds) s (medians):")
print("  rate    kind                          CPU ms/s   µs/callback   callbacks/s   × raw (per round)")
for rate in rates {
    var spans: [Kind: [Span]] = [:]
    for _ in 0..<rounds {
        for kind in Kind.measured { spans[kind, default: []].append(measure(kind, rate: rate)) }
    }
    for kind in Kind.measured {
        let runs = spans[kind]!
        let perSecond = runs.map { Double($0.cpu) / Double($0.wall) * 1_000 }
        let perCallback = median(runs.map { $0.callbacks == 0 ? .nan : Double($0.cpu) / Double($0.callbacks) / 1_000 })
        let rateSeen = median(runs.map { Double($0.callbacks) / (Double($0.wall) / 1e9) })
        // The ratio to the raw timer of the same round (both ran back to back, under the same load).
        let raw = spans[.raw]?.map { Double($0.cpu) / Double($0.wall) * 1_000 }
        let ratio = raw.map { raw in median(zip(perSecond, raw).map { $0 / $1 }) } ?? .nan
        let name = kind.rawValue.padding(toLength: 28, withPad: " ", startingAt: 0)
        print(
            String(format: "  %3.0f Hz  ", rate) + name
                + String(format: "  %8.3f   %11.2f   %11.1f   %8.2f", median(perSecond), perCallback, rateSeen, ratio))
    }
}
