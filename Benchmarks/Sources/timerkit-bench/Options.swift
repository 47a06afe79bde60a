import Foundation

/// Sections of the suite, selectable with `--only`.
enum Section: String, CaseIterable, Codable, Sendable {
    case lateness, tolerance, cpu, wakeups, pending, fired, expiry, million, virtual, cancellation, primitives, calendar
}

/// Command-line options.
struct Options: Codable, Sendable {
    enum Length: String, Codable, Sendable {
        case quick, standard, long
    }

    var length: Length = .standard
    var sections: [Section] = Section.allCases
    var jsonPath: String
    var svgPath: String
    var quiet = false

    /// Rounds of every lateness measurement (each kind runs once per round, kinds interleaved).
    var rounds: Int
    /// Deadlines per lateness measurement.
    var deadlines = 150
    /// Seconds of `getrusage` window in the CPU and wake-up sections, and seconds of warm-up before it.
    var window: Double
    var settle: Double
    /// Pending one-shots, fired one-shots, and the big population.
    var pendingCount = 100_000
    /// Foundation timers' cancellation is quadratic: they are measured at this count instead.
    var foundationPendingCount = 10_000
    var firedCount = 20_000
    /// One-shots of the expiry section, due over `expiryWindow` seconds (50,000 expiries a second).
    var expiryCount = 100_000
    var expiryWindow = 2.0
    var millionCount = 1_000_000
    /// Daily schedules (and each comparison population) of the calendar section.
    var calendarCount = 100_000

    static let usage = """
        USAGE: timerkit-bench [--quick | --long] [--rounds N] [--only SECTIONS] [--json PATH] [--svg PATH] [--quiet]

        Measures TimerKit next to the raw timer primitives and prints a Markdown report with targets.

          --quick          one lateness round of 100 deadlines, 1.5 s windows, 20,000 pending (smoke test)
          --long           10 rounds, 10 s windows
          --rounds N       lateness rounds of 150 deadlines (default 6; the table shows the median of the rounds'
                           medians, and TimerKit − raw paired by round)
          --only LIST      comma-separated sections: lateness,tolerance,cpu,wakeups,pending,fired,expiry,million,
                           virtual,cancellation,primitives,calendar
          --json PATH      raw results, every lateness sample included (default Benchmarks/results/latest.json)
          --svg PATH       chart of the lateness distributions (default Benchmarks/results/lateness.svg)
          --quiet          no progress on standard error
        """

    init(arguments: [String]) throws(OptionError) {
        let results = Self.defaultResultsDirectory()
        jsonPath = results.appendingPathComponent("latest.json").path
        svgPath = results.appendingPathComponent("lateness.svg").path
        rounds = 6
        window = 3
        settle = 1.2
        var explicitRounds: Int?
        var rest = arguments[...]
        func value(_ flag: String) throws(OptionError) -> String {
            guard let next = rest.popFirst() else { throw OptionError.message("\(flag) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": length = .quick
            case "--long": length = .long
            case "--quiet": quiet = true
            case "--json": jsonPath = try value(argument)
            case "--svg": svgPath = try value(argument)
            case "--rounds":
                guard let count = Int(try value(argument)), count > 0 else {
                    throw OptionError.message("--rounds needs a positive number")
                }
                explicitRounds = count
            case "--only":
                var chosen: [Section] = []
                for name in try value(argument).split(separator: ",") {
                    guard let section = Section(rawValue: String(name)) else {
                        throw OptionError.message(
                            "unknown section \(name); sections: "
                                + Section.allCases.map(\.rawValue).joined(separator: ",")
                        )
                    }
                    chosen.append(section)
                }
                sections = Section.allCases.filter(chosen.contains)
            case "--help", "-h": throw OptionError.help
            default: throw OptionError.message("unknown argument \(argument)")
            }
        }
        switch length {
        case .quick:
            rounds = 1
            deadlines = 100
            window = 1.5
            settle = 1.1
            pendingCount = 20_000
            foundationPendingCount = 5_000
            firedCount = 5_000
            expiryCount = 20_000
            expiryWindow = 0.4
            millionCount = 200_000
            calendarCount = 20_000
        case .standard:
            break
        case .long:
            rounds = 10
            window = 10
            settle = 2
        }
        if let explicitRounds { rounds = explicitRounds }
    }

    /// `Benchmarks/results` next to this source file's package, else `./Benchmarks/results` or `./results`.
    private static func defaultResultsDirectory() -> URL {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path) {
            return package.appendingPathComponent("results")
        }
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if FileManager.default.fileExists(atPath: here.appendingPathComponent("Benchmarks/Package.swift").path) {
            return here.appendingPathComponent("Benchmarks/results")
        }
        return here.appendingPathComponent("results")
    }
}

/// Why the command line was not accepted.
enum OptionError: Error {
    case help
    case message(String)
}
