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
    /// The method or function it is in (an Objective-C selector, a Swift base name).
    var method = ""
}

/// A call of a method of the same object (`[self stopTimer]`, `stopTimer()`, `self.stopTimer()`), so that a
/// stop in a helper counts where the helper is called.
struct MethodCall {
    var callee: String
    var line: Int
    var column: Int
    var inDeinit: Bool
    var inLifecycle: Bool
}

/// The checks that need a whole type: a creation finding is dropped when the type stops that timer in a
/// life-cycle method (the cycle is broken at a moment that comes), and invalidate-only-in-deinit reports a
/// self-retaining timer whose every stop is in `deinit`/`dealloc`.
enum TimerLifetimes {
    /// Both languages' stored timers and stops, keyed by type name, become findings in a stable order.
    static func findings(
        stored: [String: [StoredTimer]], stops allStops: [String: [TimerStop]], calls: [String: [MethodCall]] = [:],
        language: SourceLanguage, path: String, isMainActor: (String) -> Bool = { _ in false }
    ) -> [Finding] {
        var stops: [String: [TimerStop]] = [:]
        for (typeName, typeStops) in allStops {
            stops[typeName] = throughHelpers(typeStops, calls: calls[typeName] ?? [])
        }
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
                    var site = Advice.Site(
                        language: language, subject: stop.written, typeName: typeName.isEmpty ? nil : typeName)
                    site.mainActor = isMainActor(typeName)
                    result.append(
                        Advice.finding(.invalidateOnlyInDeinit, at: (stop.line, stop.column), path: path, site: site))
                }
            }
        }
        return result
    }

    /// Follows one level of calls: a stop in a helper method counts as a life-cycle stop when a life-cycle
    /// method calls the helper, and as a stop in `deinit`/`dealloc` (at each call) when only they call it.
    static func throughHelpers(_ stops: [TimerStop], calls: [MethodCall]) -> [TimerStop] {
        var result: [TimerStop] = []
        for stop in stops {
            let callers = calls.filter { $0.callee == stop.method }
            guard !stop.inDeinit, !stop.inLifecycle, !stop.method.isEmpty, !callers.isEmpty else {
                result.append(stop)
                continue
            }
            if callers.allSatisfy(\.inDeinit) {
                for caller in callers {
                    var moved = stop
                    moved.line = caller.line
                    moved.column = caller.column
                    moved.inDeinit = true
                    result.append(moved)
                }
            } else {
                var credited = stop
                credited.inLifecycle = callers.contains(where: \.inLifecycle)
                result.append(credited)
            }
        }
        return result
    }
}
