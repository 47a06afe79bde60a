import BenchSupport
import Dispatch
import Foundation
import TimerKit
import TimerKitTesting

// The calendar section: what wall-clock schedules cost. A daily schedule is an engine ticker on the
// continuous clock plus a `WallTicker` that computes each next occurrence with calendar math; it is
// measured next to the same engine without calendar math (a continuous one-shot a day ahead) and to the
// raw primitive (a `DispatchSourceTimer` on a wall-clock deadline a day ahead), in the same run: bytes,
// creation time and the process's CPU while they wait. Then the cost of a clock set, which recomputes
// every running wall-clock ticker (measured on virtual time, where a set can be made), and the two ways
// Linux offers to notice a set of the system clock.

/// What one population of the calendar section is made of.
enum CalendarKind: String, Codable, Sendable, CaseIterable {
    /// No timer at all: the process's own CPU and wake-ups over the idle window.
    case noTimers
    /// `Ticker.schedule(.daily(hour:in:), on: .dispatch(queue))`, the schedule value built in each call.
    case daily
    /// The same, with one schedule value built once and passed to every call.
    case dailyShared
    /// `.after(.seconds(86_400), clock: .continuous)`: the same engine and clock, no calendar math.
    case continuousOneShot
    /// `DispatchSourceTimer`, `schedule(wallDeadline: .now() + .seconds(86_400))`, on a serial queue.
    case dispatchWall

    var title: String {
        switch self {
        case .noTimers: "no timers (the harness's floor)"
        case .daily: "TimerKit `.daily(hour:in:)`"
        case .dailyShared: "TimerKit `.daily(hour:in:)`, one schedule value for all"
        case .continuousOneShot: "TimerKit `.after(.seconds(86_400), clock: .continuous)`"
        case .dispatchWall: "`DispatchSourceTimer`, `wallDeadline: .now() + 86,400 s`"
        }
    }

    var isTimerKit: Bool { self == .daily || self == .dailyShared || self == .continuousOneShot }
}

/// One population: creation, bytes, and the process while they all wait.
struct CalendarPopulation: Codable, Sendable {
    var kind: CalendarKind
    var count: Int
    /// The creation loop per timer, ns, one value per round (the report shows the median).
    var createNanoseconds: [Double]
    /// Heap bytes in use while all are pending, per timer (`mallinfo2` delta, first round).
    var bytesPerTimer: Double
    /// Heap bytes still in use after cancel and release, per timer (first round).
    var bytesLeftPerTimer: Double
    /// Process CPU time (`CLOCK_PROCESS_CPUTIME_ID`, every thread) over the idle window, µs per second.
    var idleCPUMicrosecondsPerSecond: Double
    /// Voluntary context switches of the process over the idle window, per second (a proxy for wake-ups).
    var idleWakeupsPerSecond: Double
    var windowSeconds: Double
    /// Handlers that ran (none should: the deadlines are hours away).
    var fired: Int

    var medianCreateNanoseconds: Double { medianOf(createNanoseconds) }
}

/// One way of recomputing every pending schedule after a clock set.
struct CalendarRecompute: Codable, Sendable {
    var name: String
    var isTimerKit: Bool
    var count: Int
    /// Real time of each repetition on the calling thread, ms.
    var milliseconds: [Double]
    /// CPU time of the whole process over each repetition until its context had settled, ms.
    var cpuMilliseconds: [Double]
    /// How far each set moved the earliest pending deadline, on average, s (virtual time only: a daily
    /// ticker's deadline comes an hour sooner when the wall clock moves an hour forward; a continuous
    /// one-shot's stays).
    var nextDeadlineMovedSeconds: Double?

    var median: Double { medianOf(milliseconds) }
}

/// One operation of the clock-set detection rows, ns.
struct ClockSetCost: Codable, Sendable {
    var name: String
    var nanoseconds: Double
}

/// The thread that a timerfd with `TFD_TIMER_CANCEL_ON_SET` needs: what it costs to have.
struct ClockSetWatcherCost: Codable, Sendable {
    var started: Bool
    /// The start call: two descriptors, the arming and `pthread_create` (it returns once the thread exists).
    var startMicroseconds: Double
    /// RSS and heap growth from starting it (its stack pages, the watcher's record).
    var residentBytes: Int64
    var heapBytes: Int64
    /// The thread's CPU time and voluntary switches over the idle window (`/proc/self/task/*/schedstat`).
    var threadCPUNanoseconds: Int64
    var threadSwitches: Int64
    var windowSeconds: Double
    /// Sets of the system clock it noticed over the window (none are made).
    var setsNoticed: Int64
}

/// Everything the calendar section measured.
struct CalendarResult: Codable, Sendable {
    var count: Int
    var zone: String
    var hour: Int
    var rounds: Int
    var populations: [CalendarPopulation] = []
    var recomputes: [CalendarRecompute] = []
    /// Clock readings and the offset check (way a), then timerfd create, arm and close (way b).
    var offsetCosts: [ClockSetCost] = []
    var timerfdCosts: [ClockSetCost] = []
    /// Why the timerfd rows are missing, when they are.
    var timerfdError: String?
    var watcher: ClockSetWatcherCost?
    /// Times the offset between `CLOCK_REALTIME` and `CLOCK_BOOTTIME` moved by more than 10 ms during the
    /// offset-check loops (a set, or a step of time synchronisation).
    var offsetChangesSeen: Int = 0
    /// `/sys/devices/system/clocksource/clocksource0/current_clocksource` (`tsc`: readings in the vDSO).
    var clockSource: String
    /// Whether this process may set the system clock (`CAP_SYS_TIME` in `CapEff`); nil where unknown.
    var canSetClock: Bool?
}

/// Handler calls of the calendar section's timers (a global, so that handlers capture nothing).
private let calendarFires = Locked(0)

/// The change of the wall clock's offset that counts as a set (TimerKit's `WallClockWatch.threshold`).
private let offsetThresholdNanoseconds: Int64 = 10_000_000

/// A far-future wall-clock instant for the timerfd rows: 2100-01-01 00:00 UTC.
private let farFutureWallSeconds: Int64 = 4_102_444_800

extension TimerKitBench {
    /// Rounds of the populations' creation (bytes and the idle window: the first round).
    static let calendarRounds = 3
    /// The populations measured in each round, in this order (reversed every other round).
    static let calendarPopulationKinds: [CalendarKind] = [.daily, .dailyShared, .continuousOneShot, .dispatchWall]
    /// Repetitions of each recompute row (after one warm-up).
    static let calendarRecomputeRepetitions = 5
    /// The floor, the rounds, four recompute rows, the offset check, the timerfd and its thread.
    static var calendarSteps: Int { 1 + calendarRounds * calendarPopulationKinds.count + 4 + 3 }

    static func runCalendar(_ options: Options, _ progress: ProgressLog) -> CalendarResult {
        let count = options.calendarCount
        let paris = TimeZone(identifier: "Europe/Paris")
        let zone = paris ?? TimeZone(secondsFromGMT: 3_600) ?? .gmt
        if paris == nil { progress.note("    Europe/Paris is not known here: UTC+1 instead") }
        // 09:00, unless the run is near it (then none should fire during the section either way).
        let localHour = Calendar(identifier: .gregorian).dateComponents(in: zone, from: Date()).hour ?? 0
        let hour = (8...9).contains(localHour) ? 21 : 9
        var result = CalendarResult(
            count: count, zone: paris == nil ? "UTC+1" : "Europe/Paris", hour: hour, rounds: calendarRounds,
            clockSource: clockSourceName(), canSetClock: canSetSystemClock())

        progress.step("calendar: no timers, \(format(options.window)) s idle window")
        result.populations.append(
            measureCalendarPopulation(
                .noTimers, count: 0, hour: hour, zone: zone, idle: (options.settle, options.window)))
        var rounds: [[CalendarPopulation]] = []
        for round in 1...calendarRounds {
            let order =
                round.isMultiple(of: 2) ? Array(calendarPopulationKinds.reversed()) : calendarPopulationKinds
            var measured: [CalendarPopulation] = []
            for kind in order {
                progress.step(
                    "calendar round \(round)/\(calendarRounds): \(count.formatted()) × \(kind.title)"
                        + (round == 1 ? ", bytes, \(format(options.window)) s idle window" : ""))
                let population = measureCalendarPopulation(
                    kind, count: count, hour: hour, zone: zone,
                    idle: round == 1 ? (options.settle, options.window) : nil)
                progress.note(
                    "    create \(format(population.medianCreateNanoseconds)) ns"
                        + (round == 1
                            ? ", \(format(population.bytesPerTimer)) B each, idle "
                                + "\(format(population.idleCPUMicrosecondsPerSecond)) µs CPU/s, "
                                + "\(format(population.idleWakeupsPerSecond)) wake-ups/s" : ""))
                measured.append(population)
            }
            rounds.append(measured)
        }
        for kind in calendarPopulationKinds {
            let mine = rounds.compactMap { round in round.first { $0.kind == kind } }
            guard var first = mine.first else { continue }
            first.createNanoseconds = mine.flatMap(\.createNanoseconds)
            result.populations.append(first)
        }

        result.recomputes = measureRecomputes(count: count, hour: hour, zone: zone, progress)

        progress.step("calendar: clock readings and the offset check, 5 rounds of 1,000,000")
        let (offsetCosts, changes) = measureOffsetCheck()
        result.offsetCosts = offsetCosts
        result.offsetChangesSeen = changes
        progress.step("calendar: timerfd_create + timerfd_settime(TFD_TIMER_CANCEL_ON_SET), 40 batches of 256")
        switch measureTimerfd() {
        case .success(let costs): result.timerfdCosts = costs
        case .failure(let error): result.timerfdError = error.message
        }
        progress.step("calendar: a thread blocked on a cancel-on-set timerfd, \(format(options.window)) s window")
        result.watcher = measureWatcherThread(window: options.window)
        return result
    }

    // MARK: Populations

    /// `count` timers of `kind` on a dispatch queue of their own, created after a warm-up; with `idle`,
    /// (settle, window) seconds of waiting measured while they are pending. Then cancelled and released.
    private static func measureCalendarPopulation(
        _ kind: CalendarKind, count: Int, hour: Int, zone: TimeZone, idle: (settle: Double, window: Double)?
    ) -> CalendarPopulation {
        let bench = CalendarBench(kind: kind, hour: hour, zone: zone)
        bench.reserve(count)
        bench.warmUp()
        calendarFires.withLock { $0 = 0 }
        let before = bench.settledHeap()
        let create = bench.make(count)
        let pending = mallocInUse()
        var cpu = 0.0
        var wakeups = 0.0
        if let idle {
            sleep(seconds: idle.settle)
            let usageBefore = ProcessUsage.now()
            let cpuBefore = processCPUNanoseconds()
            sleep(seconds: idle.window)
            let cpuSpent = processCPUNanoseconds() - cpuBefore
            let usage = ProcessUsage.now() - usageBefore
            cpu = Double(cpuSpent) / 1e3 / usage.wallSeconds
            wakeups = Double(usage.voluntarySwitches) / usage.wallSeconds
        }
        let fired = calendarFires.current
        bench.cancelAll()
        let after = bench.settledHeap()
        let perTimer = { (bytes: Int64) in count > 0 ? Double(bytes) / Double(count) : 0 }
        return CalendarPopulation(
            kind: kind, count: count, createNanoseconds: [count > 0 ? Double(create) / Double(count) : 0],
            bytesPerTimer: perTimer(pending - before), bytesLeftPerTimer: perTimer(after - before),
            idleCPUMicrosecondsPerSecond: cpu, idleWakeupsPerSecond: wakeups, windowSeconds: idle?.window ?? 0,
            fired: fired)
    }

    // MARK: Recompute after a clock set

    /// The recompute rows: TimerKit's on virtual time (daily schedules, then one-shots that are not
    /// wall-clock tickers, which a set only scans past), and the raw equivalent by hand (each source
    /// rescheduled at the next occurrence `Calendar` finds, then at one fixed deadline, no calendar math).
    private static func measureRecomputes(
        count: Int, hour: Int, zone: TimeZone, _ progress: ProgressLog
    ) -> [CalendarRecompute] {
        var rows: [CalendarRecompute] = []
        for daily in [true, false] {
            let name =
                daily
                ? "TimerKit, virtual time: `moveWallClock(by: .seconds(3600))`, \(count.formatted()) daily"
                : "TimerKit, virtual time: the same set, \(count.formatted()) continuous one-shots (not wall-clock: "
                    + "scanned, not recomputed)"
            progress.step("calendar: recompute, \(name)")
            rows.append(measureVirtualRecompute(name: name, count: count, daily: daily, hour: hour, zone: zone))
            progress.note("    \(format(rows[rows.count - 1].median)) ms")
        }
        for withCalendar in [true, false] {
            let name =
                withCalendar
                ? "raw, by hand: `Calendar.nextDate(after:matching:)` + `schedule(wallDeadline:)`, "
                    + "\(count.formatted()) `DispatchSourceTimer`s"
                : "raw, by hand: `schedule(wallDeadline:)` only (one fixed deadline), "
                    + "\(count.formatted()) `DispatchSourceTimer`s"
            progress.step("calendar: recompute, \(name)")
            rows.append(
                measureRawRecompute(name: name, count: count, calendarMath: withCalendar, hour: hour, zone: zone))
            progress.note("    \(format(rows[rows.count - 1].median)) ms")
        }
        return rows
    }

    /// `count` tickers made on a `VirtualTime` (daily at `hour` in `zone`, or continuous one-shots a day
    /// ahead) on one dispatch queue; then the virtual wall clock moved forward an hour, once as a warm-up
    /// and `calendarRecomputeRepetitions` times measured. The virtual wall clock starts at 01:00:01 in
    /// Paris (2001-01-01 00:00:01 UTC), so no occurrence is passed on the way.
    private static func measureVirtualRecompute(
        name: String, count: Int, daily: Bool, hour: Int, zone: TimeZone
    ) -> CalendarRecompute {
        let time = VirtualTime()
        let queue = DispatchQueue(label: "timerkit-bench.calendar.virtual")
        let schedule: TickSchedule =
            daily ? .daily(hour: hour, in: zone) : .after(.seconds(86_400), clock: .continuous)
        let tickers = time.run {
            (0..<count).map { _ in
                Ticker.schedule(schedule, on: .dispatch(queue)) { _ in calendarFires.withLock { $0 += 1 } }
            }
        }
        var milliseconds: [Double] = []
        var cpu: [Double] = []
        time.moveWallClock(by: .seconds(3_600))
        let firstDeadline = time.nextDeadline
        for _ in 0..<calendarRecomputeRepetitions {
            let cpuBefore = processCPUNanoseconds()
            let start = monotonicNow()
            time.moveWallClock(by: .seconds(3_600))
            let end = monotonicNow()
            queue.sync {}
            milliseconds.append(Double(end - start) / 1e6)
            cpu.append(Double(processCPUNanoseconds() - cpuBefore) / 1e6)
        }
        let moved = firstDeadline.flatMap { first in
            time.nextDeadline.map { Double(first.nanoseconds - $0.nanoseconds) / 1e9 }
        }
        for ticker in tickers { ticker.cancel() }
        return CalendarRecompute(
            name: name, isTimerKit: true, count: count, milliseconds: milliseconds, cpuMilliseconds: cpu,
            nextDeadlineMovedSeconds: moved.map { $0 / Double(calendarRecomputeRepetitions) })
    }

    /// What an app holding `count` raw dispatch sources would do on a clock set: reschedule each, at the
    /// next 'hour':00 of `zone` found by Foundation's `Calendar` (read with the wall clock per source, as
    /// TimerKit does per ticker), or at one fixed deadline. One warm-up, then three repetitions.
    private static func measureRawRecompute(
        name: String, count: Int, calendarMath: Bool, hour: Int, zone: TimeZone
    ) -> CalendarRecompute {
        let queue = DispatchQueue(label: "timerkit-bench.calendar.raw-recompute")
        var sources: [any DispatchSourceTimer] = []
        sources.reserveCapacity(count)
        for _ in 0..<count {
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.setEventHandler { calendarFires.withLock { $0 += 1 } }
            source.schedule(wallDeadline: .now() + .seconds(86_400), leeway: .nanoseconds(0))
            source.activate()
            sources.append(source)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(hour: hour, minute: 0, second: 0)
        let fixed = DispatchWallTime.now() + .seconds(86_400)
        var milliseconds: [Double] = []
        var cpu: [Double] = []
        for repetition in 0...3 {
            let cpuBefore = processCPUNanoseconds()
            let start = monotonicNow()
            for source in sources {
                if calendarMath,
                    let next = calendar.nextDate(after: Date(), matching: components, matchingPolicy: .nextTime)
                {
                    let seconds = Int(next.timeIntervalSince1970)
                    source.schedule(
                        wallDeadline: DispatchWallTime(timespec: timespec(tv_sec: seconds, tv_nsec: 0)),
                        leeway: .nanoseconds(0))
                } else {
                    source.schedule(wallDeadline: fixed, leeway: .nanoseconds(0))
                }
            }
            let end = monotonicNow()
            queue.sync {}
            guard repetition > 0 else { continue }  // the warm-up
            milliseconds.append(Double(end - start) / 1e6)
            cpu.append(Double(processCPUNanoseconds() - cpuBefore) / 1e6)
        }
        for source in sources { source.cancel() }
        sources.removeAll()
        queue.sync {}
        return CalendarRecompute(
            name: name, isTimerKit: false, count: count, milliseconds: milliseconds, cpuMilliseconds: cpu)
    }

    // MARK: Noticing a set of the system clock

    /// Way (a): the offset between `CLOCK_REALTIME` and `CLOCK_BOOTTIME` read and compared with the last
    /// one, as TimerKit does at each wake-up of a continuous-clock engine; with the two readings alone
    /// beside it, and with the uncontended lock `WallClockWatch.check` also takes. Returns the rows and the
    /// number of times the offset moved by more than the threshold during the loops.
    private static func measureOffsetCheck() -> ([ClockSetCost], Int) {
        var rows: [ClockSetCost] = []
        var realtime = timespec()
        var boottime = timespec()
        var sink: Int64 = 0
        rows.append(
            ClockSetCost(
                name: "`clock_gettime(CLOCK_REALTIME)`",
                nanoseconds: nanosecondsPerCall {
                    clock_gettime(CLOCK_REALTIME, &realtime)
                    sink &+= Int64(realtime.tv_nsec)
                }))
        rows.append(
            ClockSetCost(
                name: "`clock_gettime(CLOCK_BOOTTIME)`",
                nanoseconds: nanosecondsPerCall {
                    clock_gettime(CLOCK_BOOTTIME, &boottime)
                    sink &+= Int64(boottime.tv_nsec)
                }))
        func offset() -> Int64 {
            clock_gettime(CLOCK_REALTIME, &realtime)
            clock_gettime(CLOCK_BOOTTIME, &boottime)
            return (Int64(realtime.tv_sec) - Int64(boottime.tv_sec)) * 1_000_000_000
                + Int64(realtime.tv_nsec) - Int64(boottime.tv_nsec)
        }
        var last = offset()
        var changes = 0
        rows.append(
            ClockSetCost(
                name: "(a) offset check: both readings, subtract, compare with the last offset",
                nanoseconds: nanosecondsPerCall {
                    let now = offset()
                    if abs(now - last) > offsetThresholdNanoseconds {
                        last = now
                        changes += 1
                    }
                }))
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        rows.append(
            ClockSetCost(
                name: "(a) the same check under an uncontended `pthread_mutex` (as `WallClockWatch.check` takes "
                    + "its state's lock)",
                nanoseconds: nanosecondsPerCall {
                    let now = offset()
                    pthread_mutex_lock(mutex)
                    if abs(now - last) > offsetThresholdNanoseconds {
                        last = now
                        changes += 1
                    }
                    pthread_mutex_unlock(mutex)
                }))
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        withExtendedLifetime(sink) {}
        return (rows, changes)
    }

    /// Why the timerfd rows could not be measured.
    struct TimerfdError: Error {
        var message: String
    }

    /// Way (b): `timerfd_create(CLOCK_REALTIME)`, `timerfd_settime` with `TFD_TIMER_ABSTIME |
    /// TFD_TIMER_CANCEL_ON_SET` to a far-future instant, and `close`, each timed over batches of 256
    /// descriptors (the median of 40 batches), with a non-blocking read after arming to check that the
    /// descriptor is armed and not cancelled.
    private static func measureTimerfd() -> Result<[ClockSetCost], TimerfdError> {
        let batch = 256
        var descriptors = [Int32](repeating: -1, count: batch)
        var creates: [Double] = []
        var arms: [Double] = []
        var closes: [Double] = []
        for round in 0...40 {
            let start = monotonicNow()
            for index in 0..<batch { descriptors[index] = bench_timerfd_realtime_create() }
            let created = monotonicNow()
            var failure: Int32 = 0
            for index in 0..<batch where descriptors[index] >= 0 {
                let status = bench_timerfd_arm_cancel_on_set(descriptors[index], farFutureWallSeconds)
                if status != 0 { failure = status }
            }
            let armed = monotonicNow()
            let state = descriptors[0] >= 0 ? bench_timerfd_poll_cancelled(descriptors[0]) : descriptors[0]
            let closing = monotonicNow()
            for index in 0..<batch where descriptors[index] >= 0 { close(descriptors[index]) }
            let closed = monotonicNow()
            if let bad = descriptors.first(where: { $0 < 0 }) {
                return .failure(TimerfdError(message: "timerfd_create failed: \(String(cString: strerror(-bad)))"))
            }
            if failure != 0 {
                return .failure(
                    TimerfdError(message: "timerfd_settime failed: \(String(cString: strerror(-failure)))"))
            }
            if state != 0 {
                return .failure(TimerfdError(message: "a fresh cancel-on-set timerfd read \(state), not EAGAIN"))
            }
            guard round > 0 else { continue }  // the warm-up
            creates.append(Double(created - start) / Double(batch))
            arms.append(Double(armed - created) / Double(batch))
            closes.append(Double(closed - closing) / Double(batch))
        }
        return .success([
            ClockSetCost(
                name: "(b) `timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK)`",
                nanoseconds: medianOf(creates)),
            ClockSetCost(
                name: "(b) `timerfd_settime(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)`, far future",
                nanoseconds: medianOf(arms)),
            ClockSetCost(
                name: "(b) create + arm", nanoseconds: medianOf(zip(creates, arms).map { $0 + $1 })),
            ClockSetCost(name: "(b) `close` (for reference)", nanoseconds: medianOf(closes)),
        ])
    }

    /// Way (b)'s standing cost: a thread blocked on a cancel-on-set timerfd for as long as the process
    /// wants sets noticed. Starts one, measures what it adds and what it does over `window` seconds, stops it.
    private static func measureWatcherThread(window: Double) -> ClockSetWatcherCost {
        _ = bench_malloc_trim()
        let heapBefore = mallocInUse()
        let residentBefore = bench_resident_bytes()
        let start = monotonicNow()
        let made = bench_clock_set_watcher_start()
        let started = monotonicNow()
        guard let watcher = made else {
            return ClockSetWatcherCost(
                started: false, startMicroseconds: 0, residentBytes: 0, heapBytes: 0, threadCPUNanoseconds: 0,
                threadSwitches: 0, windowSeconds: window, setsNoticed: 0)
        }
        // Measured once the thread shows under its name (it names itself first thing) and has settled.
        waitUntil(timeout: 5) { ThreadSchedule.now(namePrefix: "bench.clockset") != nil }
        sleep(seconds: 0.1)
        let resident = bench_resident_bytes() - residentBefore
        let heap = mallocInUse() - heapBefore
        let threadBefore = ThreadSchedule.now(namePrefix: "bench.clockset")
        sleep(seconds: window)
        let threadAfter = ThreadSchedule.now(namePrefix: "bench.clockset")
        let sets = bench_clock_set_watcher_sets(watcher)
        bench_clock_set_watcher_stop(watcher)
        let spent = threadAfter.flatMap { after in threadBefore.map { after - $0 } }
        return ClockSetWatcherCost(
            started: true, startMicroseconds: Double(started - start) / 1e3, residentBytes: resident,
            heapBytes: heap, threadCPUNanoseconds: spent?.runNanoseconds ?? 0,
            threadSwitches: spent?.voluntarySwitches ?? 0, windowSeconds: window, setsNoticed: sets)
    }

    // MARK: Helpers

    /// Nanoseconds per call of `body`, the median of 5 rounds of 1,000,000 calls.
    private static func nanosecondsPerCall(_ body: () -> Void) -> Double {
        var samples: [Double] = []
        for _ in 0..<5 {
            let start = monotonicNow()
            for _ in 0..<1_000_000 { body() }
            samples.append(Double(monotonicNow() - start) / 1_000_000)
        }
        return medianOf(samples)
    }

    /// The kernel's clock source (`tsc`, `kvm-clock`, …), or "unknown".
    private static func clockSourceName() -> String {
        let path = "/sys/devices/system/clocksource/clocksource0/current_clocksource"
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? "unknown" : name
    }

    /// Whether `CAP_SYS_TIME` (capability 25) is in this process's effective set; nil where unknown.
    private static func canSetSystemClock() -> Bool? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return nil }
        return mask & (1 << 25) != 0
    }
}

// MARK: Timers

/// One population's timers on a dispatch queue of its own; lives on the calling thread.
private final class CalendarBench {
    let kind: CalendarKind
    let hour: Int
    let zone: TimeZone
    private let queue = DispatchQueue(label: "timerkit-bench.calendar")
    private var tickers: [Ticker] = []
    private var sources: [any DispatchSourceTimer] = []

    init(kind: CalendarKind, hour: Int, zone: TimeZone) {
        self.kind = kind
        self.hour = hour
        self.zone = zone
    }

    /// Reserves the arrays of handles before the heap is first read (they are the harness's bytes).
    func reserve(_ count: Int) {
        tickers.reserveCapacity(count)
        sources.reserveCapacity(count)
    }

    /// Creates and cancels a few first: the engine, the wall-clock watch, the zone's rules and the
    /// runtime's caches are not the population's bytes.
    func warmUp() {
        _ = make(16)
        cancelAll()
    }

    /// Creates `count` timers; returns the nanoseconds of the creation loop.
    func make(_ count: Int) -> Int64 {
        let context = TickerContext.dispatch(queue)
        switch kind {
        case .noTimers:
            return 0
        case .daily:
            let (hour, zone) = (hour, zone)
            let start = monotonicNow()
            for _ in 0..<count {
                tickers.append(
                    Ticker.schedule(.daily(hour: hour, in: zone), on: context) { _ in
                        calendarFires.withLock { $0 += 1 }
                    })
            }
            return monotonicNow() - start
        case .dailyShared, .continuousOneShot:
            let schedule: TickSchedule =
                kind == .dailyShared
                ? .daily(hour: hour, in: zone) : .after(.seconds(86_400), clock: .continuous)
            let start = monotonicNow()
            for _ in 0..<count {
                tickers.append(Ticker.schedule(schedule, on: context) { _ in calendarFires.withLock { $0 += 1 } })
            }
            return monotonicNow() - start
        case .dispatchWall:
            let start = monotonicNow()
            for _ in 0..<count {
                let source = DispatchSource.makeTimerSource(queue: queue)
                source.setEventHandler { calendarFires.withLock { $0 += 1 } }
                source.schedule(wallDeadline: .now() + .seconds(86_400), leeway: .nanoseconds(0))
                source.activate()
                sources.append(source)
            }
            return monotonicNow() - start
        }
    }

    /// Cancels every timer, then drops the handles (keeping the arrays' storage).
    func cancelAll() {
        for ticker in tickers { ticker.cancel() }
        tickers.removeAll(keepingCapacity: true)
        for source in sources { source.cancel() }
        sources.removeAll(keepingCapacity: true)
    }

    /// Drains the queue, gives asynchronous releases (a cancelled source is freed on its queue) a moment,
    /// and reads the heap.
    func settledHeap() -> Int64 {
        queue.sync {}
        sleep(seconds: 0.2)
        queue.sync {}
        return mallocInUse()
    }
}

// MARK: Report

func calendarSection(_ result: CalendarResult) -> [String] {
    let count = result.count.formatted()
    var lines = [
        "",
        "### Calendar schedules: \(count) daily schedules, a clock set, and noticing one",
        "",
        "Reproduce: `swift run -c release --package-path Benchmarks timerkit-bench --only calendar`. "
            + "\(count) handle-owned timers on one serial dispatch queue, kept in an array: "
            + "`.daily(hour: \(result.hour), in: TimeZone(identifier: \"\(result.zone)\"))` (the zone made once), "
            + "next to the same engine without calendar math (`.after(.seconds(86_400), clock: .continuous)`) and "
            + "to the raw primitive (`DispatchSourceTimer`, `schedule(wallDeadline: .now() + .seconds(86_400))`). "
            + "create: the creation loop per timer, the median of \(result.rounds) interleaved rounds. Bytes: "
            + "malloc'd bytes in use (`mallinfo2` `uordblks + hblkhd`) while pending, and left after cancel and "
            + "release, per timer, against the level before creation (first round). Idle: CPU time of the whole "
            + "process (`CLOCK_PROCESS_CPUTIME_ID`) and its voluntary context switches over the window while all "
            + "are pending (first round). TimerKit cells show, in brackets, the ratio to the continuous one-shot "
            + "(*engine*) and to the raw dispatch source (*raw*).",
        "",
        "| timer | count | create ns | B per pending | B left | idle CPU µs/s | idle wake-ups/s | fired |",
        "|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    let engine = result.populations.first { $0.kind == .continuousOneShot }
    let raw = result.populations.first { $0.kind == .dispatchWall }
    for population in result.populations {
        func cell(_ value: (CalendarPopulation) -> Double) -> String {
            guard population.kind != .noTimers else { return "—" }
            let mine = value(population)
            var references: [String] = []
            if population.kind == .daily || population.kind == .dailyShared, let engine {
                references.append("\(ratioText(mine, value(engine))) engine")
            }
            if population.kind.isTimerKit, let raw { references.append("\(ratioText(mine, value(raw))) raw") }
            return format(mine) + (references.isEmpty ? "" : " (\(references.joined(separator: ", ")))")
        }
        let name = population.kind.isTimerKit ? "**\(population.kind.title)**" : population.kind.title
        lines.append(
            "| \(name) | \(population.count.formatted()) | \(cell(\.medianCreateNanoseconds)) | "
                + "\(cell(\.bytesPerTimer)) | "
                + "\(population.kind == .noTimers ? "—" : format(population.bytesLeftPerTimer)) | "
                + "\(format(population.idleCPUMicrosecondsPerSecond)) | \(format(population.idleWakeupsPerSecond)) | "
                + "\(population.fired) |")
    }
    if let floor = result.populations.first(where: { $0.kind == .noTimers }),
        let engine, engine.idleWakeupsPerSecond > floor.idleWakeupsPerSecond
    {
        let extraWakeups = engine.idleWakeupsPerSecond - floor.idleWakeupsPerSecond
        let extraCPU = engine.idleCPUMicrosecondsPerSecond - floor.idleCPUMicrosecondsPerSecond
        lines.append("")
        lines.append(
            "A continuous-clock engine on a system context waits at most 1 s at a time (`ContinuousAlarm`, so that "
                + "a device's sleep is noticed; it is also where a clock set is noticed, below), however far its "
                + "deadlines are: the TimerKit rows' extra \(format(extraWakeups)) wake-up(s)/s over the floor, "
                + "about \(format(extraCPU / extraWakeups)) µs of process CPU each for the continuous one-shots, "
                + "while the raw source waits in the kernel.")
    }
    lines += [
        "",
        "A clock set recomputes every running wall-clock ticker (`WallClockWatch.recompute`). TimerKit rows: on "
            + "`VirtualTime`, \(count) tickers made in `time.run { }`, then `time.moveWallClock(by: .seconds(3600))` "
            + "(which recomputes on the calling thread, at once), once as a warm-up and "
            + "\(TimerKitBench.calendarRecomputeRepetitions) times measured. Raw rows: what an app holding "
            + "\(count) activated dispatch sources would do by hand, rescheduling each, 1 warm-up and 3 "
            + "repetitions. ms: real time on the calling thread, the median (range); CPU: the whole process's "
            + "until the queue had drained, median. Next deadline moved: how much sooner `VirtualTime.nextDeadline` "
            + "came per set (3,600 s when every daily ticker was recomputed).",
        "",
        "| recompute | tickers | ms (min–max) | CPU ms | ns per ticker | next deadline moved per set |",
        "|---|--:|--:|--:|--:|--:|",
    ]
    for row in result.recomputes {
        let sorted = row.milliseconds.sorted()
        lines.append(
            "| \(row.isTimerKit ? "**\(row.name)**" : row.name) | \(row.count.formatted()) | "
                + "\(format(row.median)) (\(format(sorted.first ?? .nan))–\(format(sorted.last ?? .nan))) | "
                + "\(format(medianOf(row.cpuMilliseconds))) | \(format(row.median * 1e6 / Double(max(1, row.count)))) | "
                + "\(row.nextDeadlineMovedSeconds.map { "\(format($0)) s" } ?? "—") |")
    }
    lines += [
        "",
        "Noticing a set of the system clock on Linux. (a) TimerKit's way: at each wake-up of a continuous-clock "
            + "engine (at least one a second while such tickers run), read the offset between `CLOCK_REALTIME` and "
            + "`CLOCK_BOOTTIME` and compare it with the last (a change over 10 ms recomputes): the median of 5 "
            + "rounds of 1,000,000 calls. (b) A `timerfd` on `CLOCK_REALTIME` armed with `TFD_TIMER_ABSTIME | "
            + "TFD_TIMER_CANCEL_ON_SET` for a far-future instant, whose `read` fails with `ECANCELED` at a set: "
            + "per descriptor, the median of 40 batches of 256. Clock source: `\(result.clockSource)`.",
        "",
        "| operation | ns |",
        "|---|--:|",
    ]
    for row in result.offsetCosts + result.timerfdCosts {
        lines.append("| \(row.name) | \(format(row.nanoseconds)) |")
    }
    if let error = result.timerfdError { lines.append("| (b) timerfd | not measured: \(error) |") }
    if let watcher = result.watcher {
        lines.append("")
        if watcher.started {
            lines.append(
                "(b) also needs a thread blocked on the descriptor for the process's life (here in `poll`, with an "
                    + "eventfd so that the bench can stop it; `read` in production): starting one (two descriptors, "
                    + "the arming, `pthread_create`) took \(format(watcher.startMicroseconds)) µs and added \(format(Double(watcher.residentBytes) / 1_024)) "
                    + "KiB of RSS and \(watcher.heapBytes.formatted()) B of heap (an 8 MiB stack reserved); over "
                    + "\(format(watcher.windowSeconds)) s idle it used \(format(Double(watcher.threadCPUNanoseconds) / 1e3)) "
                    + "µs of CPU and made \(watcher.threadSwitches) voluntary switches; it noticed "
                    + "\(watcher.setsNoticed) clock set(s).")
        } else {
            lines.append("(b)'s watcher thread could not be started here.")
        }
    }
    if let daily = result.populations.first(where: { $0.kind == .daily }),
        let floor = result.populations.first(where: { $0.kind == .noTimers }),
        let check = result.offsetCosts.first(where: { $0.name.hasPrefix("(a) the same check") })
    {
        let extra = max(0, daily.idleWakeupsPerSecond - floor.idleWakeupsPerSecond)
        lines.append("")
        lines.append(
            "(a) costs \(format(check.nanoseconds)) ns per wake-up that happens anyway: at the "
                + "\(format(extra)) wake-ups/s the daily population added over the no-timer floor while idle, "
                + "\(format(check.nanoseconds * extra)) ns of CPU per second; it notices a set at the next wake-up "
                + "(within a second). (b) notices at once, for a thread and a descriptor kept for the process's life.")
    }
    let capability: String
    switch result.canSetClock {
    case true?: capability = "this process has `CAP_SYS_TIME`, but the bench never uses it"
    case false?: capability = "this process has no `CAP_SYS_TIME`"
    case nil: capability = "whether this process may set the clock is unknown"
    }
    lines.append("")
    lines.append(
        "No set of the system clock is made (\(capability): a set moves every process's wall clock, and the "
            + "machine is shared), so neither way is seen catching one here; "
            + "\(result.offsetChangesSeen) change(s) of the offset over 10 ms were seen during the check loops.")
    return lines
}
