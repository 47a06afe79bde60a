import Foundation

/// Command-line options of `timerkit-soak`.
struct SoakOptions: Codable, Sendable {
    /// Seconds of churn after the warm-up cycle.
    var duration: Double = 600
    /// Slots of the population: about this many tickers are live at any time.
    var tickers = 10_000
    /// Seconds between two progress lines.
    var reportEvery: Double = 5
    /// Seed of the churn's random choices (printed, so that a run can be repeated).
    var seed: UInt64
    /// Churn operations per second, over all churn threads.
    var opsPerSecond = 4_000
    /// Where to write the samples and the verdict, if anywhere.
    var jsonPath: String?

    /// Threads that churn the population, each over its own stripe of slots.
    var churnThreads = 3
    /// Seconds of the warm-up cycle: the population is created, churned for this long and released once,
    /// and the level after that is the starting level.
    var warmUp: Double { min(10, max(3, duration / 20)) }

    static let usage = """
        USAGE: timerkit-soak [--duration D] [--tickers N] [--report-every D] [--seed N] [--ops N] [--json PATH]

        Churns a population of TimerKit tickers over every context for a while, printing a line of live
        tickers, memory, fires/s, ops/s and CPU every few seconds, then releases everything and checks that
        the live count, the lifetimes, the heap and RSS are back to their starting level (exit 1 if not).

          --duration D      how long to churn after the warm-up cycle (default 10m)
          --tickers N       live tickers to keep (default 10000)
          --report-every D  seconds between progress lines (default 5s)
          --seed N          seed of the churn's random choices (default: a random one, printed)
          --ops N           churn operations per second, all threads together (default 4000)
          --json PATH       write the options, samples, levels and verdict as JSON

        A duration D is a positive number of seconds, optionally followed by s, m or h: 600, 600s, 10m, 1h.
        """

    /// Parses `arguments` (without the program name).
    init(arguments: [String]) throws(SoakOptionError) {
        seed = UInt64.random(in: 1...999_999)
        var rest = arguments[...]
        func value(_ flag: String) throws(SoakOptionError) -> String {
            guard let next = rest.popFirst() else { throw .message("\(flag) needs a value") }
            return next
        }
        func count(_ flag: String, in range: ClosedRange<Int>) throws(SoakOptionError) -> Int {
            let text = try value(flag)
            guard let number = Int(text.filter { $0 != "_" && $0 != "," }), range.contains(number) else {
                throw .message(
                    "\(flag) needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": throw .help
            case "--duration": duration = try Self.seconds(try value(argument), flag: argument)
            case "--report-every": reportEvery = try Self.seconds(try value(argument), flag: argument)
            case "--tickers": tickers = try count(argument, in: 100...1_000_000)
            case "--ops": opsPerSecond = try count(argument, in: 0...1_000_000)
            case "--json": jsonPath = try value(argument)
            case "--seed":
                let text = try value(argument)
                guard let number = UInt64(text) else {
                    throw .message("--seed needs a whole number ≥ 0, not '\(text)'")
                }
                seed = number
            default: throw .message("unknown argument '\(argument)'")
            }
        }
    }

    /// Seconds in `text`: a positive number with an optional unit `s`, `m` or `h` (`600`, `600s`, `10m`, `1h`).
    static func seconds(_ text: String, flag: String) throws(SoakOptionError) -> Double {
        let units: [(suffix: String, scale: Double)] = [("h", 3_600), ("m", 60), ("s", 1)]
        var number = Substring(text.trimmingCharacters(in: .whitespaces))
        var scale = 1.0
        if let unit = units.first(where: { number.hasSuffix($0.suffix) }) {
            number = number.dropLast(unit.suffix.count)
            scale = unit.scale
        }
        // Digits with at most one decimal point: no sign, exponent, "inf" or "nan".
        let plain = !number.isEmpty && number.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard plain, number.filter({ $0 == "." }).count <= 1, let value = Double(number), value > 0,
            value * scale <= 30 * 86_400
        else {
            throw .message(
                "\(flag) needs a positive duration such as 600, 600s, 10m or 1h (at most 30 days), not '\(text)'")
        }
        return value * scale
    }
}

/// Why the arguments were not accepted.
enum SoakOptionError: Error {
    /// `--help`: print the usage and exit 0.
    case help
    /// Bad input: print this and the usage, and exit 2.
    case message(String)
}
