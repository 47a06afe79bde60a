/// A timer (or source) kept in a property or instance variable, with its creation finding held back until
/// the whole type is read.
struct StoredTimer {
    /// The storage name: `timer` for `self.timer`, `_timer` and `timer`.
    var name: String
    /// Whether the timer retains self (through its target or block).
    var retainsSelf: Bool
    /// The creation site's finding, if any.
    var finding: Finding?
}

/// A place that stops a timer or source: `invalidate`, `cancel`, `dispatch_source_cancel`.
struct TimerStop {
    var name: String
    /// The receiver as written, for the message.
    var written: String
    var line: Int
    var column: Int
    var inDeinit: Bool
    /// In a method UIKit calls when a view or controller leaves the screen (`viewWillDisappear`).
    var inLifecycle: Bool
}

/// The checks that need a whole type: a creation finding is dropped when the type stops that timer in a
/// life-cycle method (the cycle is broken at a moment that comes), and invalidate-only-in-deinit reports a
/// self-retaining timer whose every stop is in `deinit`/`dealloc`.
enum TimerLifetimes {
    /// Both languages' stored timers and stops, keyed by type name, become findings in a stable order.
    static func findings(
        stored: [String: [StoredTimer]], stops: [String: [TimerStop]], language: SourceLanguage, path: String
    ) -> [Finding] {
        var result: [Finding] = []
        for typeName in stored.keys.sorted() {
            let offScreen = Set((stops[typeName] ?? []).filter(\.inLifecycle).map(\.name))
            result += (stored[typeName] ?? []).filter { !offScreen.contains($0.name) }.compactMap(\.finding)
        }
        for typeName in stops.keys.sorted() {
            let retaining = Set((stored[typeName] ?? []).filter(\.retainsSelf).map(\.name))
            let typeStops = stops[typeName] ?? []
            for name in retaining.sorted() {
                let matching = typeStops.filter { $0.name == name }
                guard !matching.isEmpty, matching.allSatisfy(\.inDeinit) else { continue }
                for stop in matching {
                    let site = Advice.Site(
                        language: language, subject: stop.written, typeName: typeName.isEmpty ? nil : typeName)
                    result.append(
                        Advice.finding(.invalidateOnlyInDeinit, at: (stop.line, stop.column), path: path, site: site))
                }
            }
        }
        return result
    }
}
