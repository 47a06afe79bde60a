import BenchSupport
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("timerkit-bench: unsupported platform")
#endif

// MARK: Clock

/// Nanoseconds on `CLOCK_MONOTONIC`: the clock every lateness is read on (on Linux it is also what
/// `DispatchTime`, `ContinuousClock` and run-loop timers count on).
@inline(__always)
func monotonicNow() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}

/// CPU time consumed by every thread of the process so far, in nanoseconds.
func processCPUNanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}

/// Blocks the calling thread for `seconds`.
func sleep(seconds: Double) {
    guard seconds > 0 else { return }
    Thread.sleep(forTimeInterval: seconds)
}

/// Threads meeting at one point: each `meet()` waits until `count` threads have called it (or 30 s have
/// passed) and returns the instant the last one arrived (a `monotonicNow()` reading). Meets once.
final class Rendezvous: Sendable {
    private let count: Int
    private let state = Locked((arrived: 0, instant: Int64(0)))
    private let released = DispatchSemaphore(value: 0)

    init(count: Int) {
        self.count = count
    }

    func meet() -> Int64 {
        let isLast = state.withLock { state -> Bool in
            state.arrived += 1
            guard state.arrived == count else { return false }
            state.instant = monotonicNow()
            return true
        }
        if isLast {
            for _ in 1..<count { released.signal() }
        } else {
            _ = released.wait(timeout: .now() + 30)
        }
        return state.withLock { $0.instant }
    }
}

/// Sleeps until `instant` (a `monotonicNow()` reading); returns at once if it has passed.
func sleep(until instant: Int64) {
    var spec = timespec(tv_sec: Int(instant / 1_000_000_000), tv_nsec: Int(instant % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
}

// MARK: Lock box

/// A value that lives inside its lock: the only way to reach it is `withLock`.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // Invariant: `value` is private and read or written only while `lock` is held, in `withLock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The current value (a copy).
    var current: Value { withLock { $0 } }
}

// MARK: Process counters

/// CPU time and context switches of the whole process, from `getrusage(RUSAGE_SELF)`.
struct ProcessUsage {
    var userNanoseconds: Int64
    var systemNanoseconds: Int64
    var voluntarySwitches: Int64
    var involuntarySwitches: Int64
    var wallNanoseconds: Int64

    static func now() -> ProcessUsage {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func nanoseconds(_ time: timeval) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_usec) * 1_000 }
        return ProcessUsage(
            userNanoseconds: nanoseconds(usage.ru_utime),
            systemNanoseconds: nanoseconds(usage.ru_stime),
            voluntarySwitches: Int64(usage.ru_nvcsw),
            involuntarySwitches: Int64(usage.ru_nivcsw),
            wallNanoseconds: monotonicNow()
        )
    }

    static func - (lhs: ProcessUsage, rhs: ProcessUsage) -> ProcessUsage {
        ProcessUsage(
            userNanoseconds: lhs.userNanoseconds - rhs.userNanoseconds,
            systemNanoseconds: lhs.systemNanoseconds - rhs.systemNanoseconds,
            voluntarySwitches: lhs.voluntarySwitches - rhs.voluntarySwitches,
            involuntarySwitches: lhs.involuntarySwitches - rhs.involuntarySwitches,
            wallNanoseconds: lhs.wallNanoseconds - rhs.wallNanoseconds
        )
    }

    var wallSeconds: Double { Double(wallNanoseconds) / 1e9 }
}

/// Bytes malloc has handed out and not taken back (`mallinfo2` `uordblks` + `hblkhd`).
func mallocInUse() -> Int64 {
    bench_malloc_in_use()
}

/// The process's resident set size in bytes (`VmRSS` in /proc/self/status), or -1.
func residentBytes() -> Int64 {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let digits = line.dropFirst("VmRSS:".count).filter(\.isNumber)
        return (Int64(String(digits)) ?? -1) * 1_024
    }
    return -1
}

// MARK: Threads

/// A dedicated thread running one block; `join()` waits for it to return.
final class JoinableThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)

    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let finished = finished
        let thread = Thread {
            body()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    func join() {
        finished.wait()
    }
}

/// "Load": one thread of this process spinning on a core until stopped.
final class Spinner: Sendable {
    private let stopped = Locked((stop: false, sink: UInt64(0)))
    private let thread: JoinableThread

    init() {
        let stopped = stopped
        thread = JoinableThread(name: "bench.spinner") {
            var state: UInt64 = 1
            while true {
                for step in 0..<10_000 { state = state &* 6_364_136_223_846_793_005 &+ UInt64(step) }
                // Publishing the result keeps the work from being optimised away.
                let stop = stopped.withLock { box -> Bool in
                    box.sink = state
                    return box.stop
                }
                if stop { break }
            }
        }
    }

    func stop() {
        stopped.withLock { $0.stop = true }
        thread.join()
    }
}

/// A `RunLoop` handed to other threads. Only thread-safe calls are made on it from elsewhere: adding a
/// timer and building a TimerKit context (which sets its own timer's fire date).
struct RunLoopHandle: @unchecked Sendable {
    // Invariant: from other threads only `add(_:forMode:)` (CFRunLoopAddTimer takes the loop's lock) and
    // TimerKit's `TickerContext.runLoop(_:)` use it; everything else runs on the loop's own thread.
    let loop: RunLoop
}

/// Objects that belong to one run-loop thread (Foundation timers must be invalidated on their thread).
final class LoopLocal: @unchecked Sendable {
    // Invariant: only touched inside `RunLoopThread.perform` blocks, which run on the loop's thread one
    // at a time; other threads only pass the reference along.
    var timers: [Foundation.Timer] = []
    var counter = 0
}

/// A dedicated thread that runs its `RunLoop` in the default mode until `stop()`.
final class RunLoopThread: Sendable {
    let handle: RunLoopHandle
    let local = LoopLocal()
    private let thread: JoinableThread

    init(name: String) {
        let ready = DispatchSemaphore(value: 0)
        let loopBox = Locked<RunLoopHandle?>(nil)
        thread = JoinableThread(name: name) {
            let loop = RunLoop.current
            // Keeps the mode non-empty, so `run` waits instead of returning at once. An explicit fire date,
            // as a Linux block timer added to a loop otherwise fires at once.
            let keepAlive = Foundation.Timer(fire: .distantFuture, interval: 1e9, repeats: true) { _ in }
            loop.add(keepAlive, forMode: .default)
            loopBox.withLock { $0 = RunLoopHandle(loop: loop) }
            ready.signal()
            // `perform(stop:)` stops the loop from inside; `run` returns and the thread ends.
            _ = loop.run(mode: .default, before: .distantFuture)
            keepAlive.invalidate()
        }
        ready.wait()
        handle = loopBox.current!
    }

    /// Runs `body` on the loop's thread (from a one-shot timer added in common modes) and waits for it.
    func perform<Result: Sendable>(_ body: @escaping @Sendable (LoopLocal) -> Result) -> Result {
        let result = Locked<Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        let local = local
        let timer = Foundation.Timer(fire: Date(), interval: 0, repeats: false) { _ in
            let value = body(local)
            result.withLock { $0 = value }
            done.signal()
        }
        handle.loop.add(timer, forMode: .common)
        done.wait()
        return result.current!
    }

    /// Invalidates every timer left in `local`, stops the loop and joins the thread.
    func stop() {
        perform { local in
            local.timers.forEach { $0.invalidate() }
            local.timers = []
            bench_stop_current_run_loop()
        }
        thread.join()
    }
}

// MARK: ProgressLog

/// ProgressLog lines on standard error, with the time since the run started.
final class ProgressLog: Sendable {
    let started = monotonicNow()
    private let quiet: Bool
    private let position = Locked((done: 0, total: 0))

    init(quiet: Bool) {
        self.quiet = quiet
    }

    func setTotal(_ total: Int) {
        position.withLock { $0.total = total }
    }

    var elapsedSeconds: Double { Double(monotonicNow() - started) / 1e9 }

    /// Announces the next step.
    func step(_ text: String) {
        let (done, total) = position.withLock { position -> (Int, Int) in
            position.done += 1
            return (position.done, position.total)
        }
        note("[\(done)/\(total) \(clockText())] " + text)
    }

    /// A line without advancing the counter.
    func note(_ text: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    private func clockText() -> String {
        let seconds = Int(elapsedSeconds)
        return String(format: "%d:%02d", seconds / 60, seconds % 60)
    }
}

/// What the scheduler did to the threads whose name starts with a prefix (summed over them), read from
/// `/proc/self/task/*/schedstat` and `status`: CPU time, time spent runnable but waiting for a CPU, and
/// context switches. Linux only (nil elsewhere, or when no thread matches).
struct ThreadSchedule: Codable, Sendable {
    var threads: Int
    /// CPU time on a core, ns.
    var runNanoseconds: Int64
    /// Time runnable but waiting on a run queue (pre-empted, or woken and not yet running), ns.
    var waitNanoseconds: Int64
    var voluntarySwitches: Int64
    var involuntarySwitches: Int64

    static func now(namePrefix prefix: String) -> ThreadSchedule? {
        let tasks = "/proc/self/task"
        guard let ids = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        var total = ThreadSchedule(
            threads: 0, runNanoseconds: 0, waitNanoseconds: 0, voluntarySwitches: 0, involuntarySwitches: 0)
        for id in ids {
            func read(_ file: String) -> String? {
                try? String(contentsOfFile: "\(tasks)/\(id)/\(file)", encoding: .utf8)
            }
            guard let name = read("comm"), name.hasPrefix(prefix), let schedstat = read("schedstat"),
                let status = read("status")
            else { continue }
            let times = schedstat.split(separator: " ").compactMap {
                Int64($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            guard times.count >= 2 else { continue }
            func field(_ key: String) -> Int64 {
                status.split(separator: "\n").first { $0.hasPrefix(key) }
                    .flatMap { Int64($0.dropFirst(key.count).trimmingCharacters(in: .whitespaces)) } ?? 0
            }
            total.threads += 1
            total.runNanoseconds += times[0]
            total.waitNanoseconds += times[1]
            total.voluntarySwitches += field("voluntary_ctxt_switches:")
            total.involuntarySwitches += field("nonvoluntary_ctxt_switches:")
        }
        return total.threads > 0 ? total : nil
    }

    static func - (lhs: ThreadSchedule, rhs: ThreadSchedule) -> ThreadSchedule {
        ThreadSchedule(
            threads: lhs.threads, runNanoseconds: lhs.runNanoseconds - rhs.runNanoseconds,
            waitNanoseconds: lhs.waitNanoseconds - rhs.waitNanoseconds,
            voluntarySwitches: lhs.voluntarySwitches - rhs.voluntarySwitches,
            involuntarySwitches: lhs.involuntarySwitches - rhs.involuntarySwitches)
    }
}
