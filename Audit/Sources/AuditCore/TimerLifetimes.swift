/// A timer, display link, dispatch source or subscription that retains self (or is kept on self), whose
/// finding waits until the whole scan is read: a stop in another method or file, a singleton owner or a
/// project type that only looks like a timer decides its severity or drops it.
struct StoredTimer {
    /// The storage name: `timer` for `self.timer`, `_timer` and `timer`; empty when it is not kept on self.
    var name: String
    /// Whether the timer retains self (through its target or block).
    var retainsSelf: Bool
    /// The creation site's finding, if any.
    var finding: Finding?
    /// The method the timer calls (a selector's first part, a method reference), where a stop is its own.
    var callback: String? = nil
    /// Its block (or handler) stops it: `timer.invalidate()` on its parameter or its storage.
    var stopsItself = false
    /// The class the call is sent to when it is not `NSTimer`/`Timer`/`CADisplayLink`: the finding stands only
    /// when the scan declares that class and it keeps its target strongly.
    var lookalikeType: String? = nil
    /// A one-shot timer with `target: self` made in this method: it counts only when its callback calls this
    /// method again (re-arms it).
    var rearmedFrom: String? = nil
    /// A subscription to a property that must hold a `Timer.publish` publisher (declared in any file).
    var publisherProperty: String? = nil
    /// A method reference whose method must be an instance method of the type (declared in any file).
    var methodReference: String? = nil
    /// The target is another object that keeps the timer in this property of its class, declared in another
    /// file (a `.h`): the finding stands when the scan shows that property is strong.
    var holderProperty: (type: String, property: String)? = nil
    /// Where it is made (a byte or token offset) and the blocks around that place (`path:offset` of each
    /// enclosing statement list or brace), so that a stop that always runs just before it — the old timer
    /// invalidated before a new one is made — does not count as stopping it.
    var position = -1
    var enclosingBlocks: Set<String> = []
    /// The finding to report instead when the scan shows that the property keeping the timer is weak (declared
    /// in another file): `weak-timer-property-no-fix`.
    var ifWeakProperty: Finding? = nil
}

/// A place that stops a timer or source: `invalidate`, `cancel`, `dispatch_source_cancel`, `removeAll`.
struct TimerStop {
    var name: String
    /// The receiver as written, for the message.
    var written: String
    var path: String
    var line: Int
    var column: Int
    var inDeinit: Bool
    /// In a method UIKit or AppKit calls when a view, controller, window or app goes away.
    var inLifecycle: Bool
    /// The method's key (a Swift base name, the first part of an Objective-C selector, `setTimer` for a setter
    /// or a property observer).
    var method = ""
    /// The method as a reader knows it: `stopAnimating()`, `-stopAnimating`, `self.timer = nil`.
    var methodDisplay = ""
    /// The receiver is a parameter of the method (`func tick(_ timer: Timer) { timer.invalidate() }`).
    var onParameter = false
    /// Its offset and the block it is in (`path:offset`), to recognise a stop of the previous timer.
    var position = -1
    var block = ""
}

extension TimerStop {
    /// Whether the stop only ends the previous timer before `timer` is made in the same block or one around
    /// it (`[self.timer invalidate]; self.timer = [NSTimer …];`): it never stops `timer` itself.
    func onlyReplaces(_ timer: StoredTimer) -> Bool {
        !block.isEmpty && timer.enclosingBlocks.contains(block) && position < timer.position
    }
}

/// A call of a method (any receiver), a selector reference or a nil assignment through a setter, so that a
/// stop in a method counts where the method is called, in any file of the scan.
struct MethodCall {
    var callee: String
    var path: String
    var line: Int
    var column: Int
    var callerType: String
    var callerMethod: String
    var inDeinit: Bool
    var inLifecycle: Bool
    /// Sent to self (`[self stop]`, `stop()`, `self.stop()`): a call of the caller's own type's method.
    var onSelf = false
}

/// What one file says about a type; files are merged by type name (a `.h` with its `.m`, extensions).
struct TypeFacts {
    /// The file declares the type (class, struct, `@interface`, `@implementation`), not only extends it.
    var declared = false
    /// A singleton (`static let shared = Self()`, `+sharedInstance` with `dispatch_once`) or an app delegate:
    /// it lives for the whole process, so a cycle through it leaks nothing.
    var livesForProcess = false
    /// It keeps a target strongly (a strong property whose name contains `target`): a wrapper proven to retain.
    var retainsTarget = false
    var isMainActor = false
    /// Instance methods declared for it.
    var methods: Set<String> = []
    /// Properties holding a `Timer.publish` publisher.
    var publishers: Set<String> = []
    /// Property name → whether it is weak (does not retain).
    var properties: [String: Bool] = [:]

    mutating func merge(_ other: TypeFacts) {
        declared = declared || other.declared
        livesForProcess = livesForProcess || other.livesForProcess
        retainsTarget = retainsTarget || other.retainsTarget
        isMainActor = isMainActor || other.isMainActor
        methods.formUnion(other.methods)
        publishers.formUnion(other.publishers)
        properties.merge(other.properties) { $0 && $1 }
    }
}

/// Everything one file adds to the scan's index.
struct FileFacts {
    var language: SourceLanguage = .swift
    var timers: [String: [StoredTimer]] = [:]
    var stops: [String: [TimerStop]] = [:]
    var calls: [MethodCall] = []
    var types: [String: TypeFacts] = [:]
    /// Methods the frameworks call (`@IBAction`, `@objc` overrides of life-cycle methods): never "never called".
    var calledBySystem: Set<String> = []
}

/// The scan's index of types, timers, the methods that stop them and where those are called; it turns the
/// held-back creation findings into warnings, notes or nothing.
struct ProjectIndex {
    private var timers: [String: [StoredTimer]] = [:]
    private var stops: [String: [TimerStop]] = [:]
    private var calls: [String: [MethodCall]] = [:]
    private(set) var types: [String: TypeFacts] = [:]
    private var calledBySystem: Set<String> = []

    init(_ files: [FileFacts]) {
        for file in files {
            for (type, list) in file.timers { timers[type, default: []] += list }
            for (type, list) in file.stops { stops[type, default: []] += list }
            for call in file.calls { calls[call.callee, default: []].append(call) }
            for (type, facts) in file.types { types[type, default: TypeFacts()].merge(facts) }
            calledBySystem.formUnion(file.calledBySystem)
        }
    }

    /// How one stop ends a timer's life.
    enum StopKind: Equatable {
        /// Only `deinit`/`dealloc` of the type reach it, at these places.
        case deinitOnly([Place])
        /// A life-cycle method reaches it: the cycle is broken at a moment that comes.
        case lifecycle
        /// The timer's own callback stops it.
        case ownCallback(String)
        /// Another method stops it and the scan calls that method.
        case called(String)
        /// Another method stops it, but nothing in the scan calls it.
        case neverCalled(String)
    }

    struct Place: Equatable {
        var path: String
        var line: Int
        var column: Int
    }

    func classify(_ stop: TimerStop, type: String, callback: String?) -> StopKind {
        if stop.inDeinit { return .deinitOnly([Place(path: stop.path, line: stop.line, column: stop.column)]) }
        if stop.inLifecycle { return .lifecycle }
        if let callback, stop.method == callback { return .ownCallback(stop.methodDisplay) }
        if stop.method.isEmpty { return .called("top-level code") }
        let callers = (calls[stop.method] ?? []).filter {
            !($0.callerType == type && $0.callerMethod == stop.method) && !($0.onSelf && $0.callerType != type)
        }
        if callers.isEmpty {
            return calledBySystem.contains(stop.method) ? .called(stop.methodDisplay) : .neverCalled(stop.methodDisplay)
        }
        if callers.contains(where: \.inLifecycle) { return .lifecycle }
        if callers.allSatisfy({ $0.inDeinit && $0.callerType == type }) {
            return .deinitOnly(callers.map { Place(path: $0.path, line: $0.line, column: $0.column) })
        }
        if let callback, callers.contains(where: { $0.callerType == type && $0.callerMethod == callback }) {
            return .ownCallback(stop.methodDisplay)
        }
        return .called(stop.methodDisplay)
    }

    /// The stops that end `timer`: by its storage name, or on the parameter of its own callback (or on anything
    /// in its callback when the timer is not kept under a name this type shows, such as one a method returns).
    func stops(of timer: StoredTimer, type: String) -> [TimerStop] {
        (stops[type] ?? []).filter { stop in
            guard !stop.onlyReplaces(timer) else { return false }
            return (!timer.name.isEmpty && stop.name == timer.name)
                || ((stop.onParameter || timer.name.isEmpty) && timer.callback != nil && stop.method == timer.callback)
        }
    }

    /// Whether a one-shot timer made in `method` is re-armed by its callback.
    func isRearmed(_ timer: StoredTimer, from method: String, type: String) -> Bool {
        guard let callback = timer.callback else { return false }
        if callback == method { return true }
        return (calls[method] ?? []).contains { $0.callerType == type && $0.callerMethod == callback }
    }

    /// The held-back findings, decided, then invalidate-only-in-deinit, in a stable order.
    func findings() -> [Finding] {
        var result: [Finding] = []
        // A project with many timers of one type classifies each stop once per callback.
        var classified: [String: StopKind] = [:]
        for type in timers.keys.sorted() {
            let facts = types[type] ?? TypeFacts()
            var deinitOnlyNames: [String: [Place]] = [:]
            for timer in timers[type] ?? [] {
                if let lookalike = timer.lookalikeType,
                    !(types[lookalike].map { $0.declared && $0.retainsTarget } ?? false)
                {
                    continue
                }
                if let method = timer.rearmedFrom, !isRearmed(timer, from: method, type: type) { continue }
                if let property = timer.publisherProperty, !facts.publishers.contains(property) { continue }
                if let method = timer.methodReference, !facts.methods.contains(method) { continue }
                if let holder = timer.holderProperty, types[holder.type]?.properties[holder.property] != false {
                    continue
                }
                if timer.retainsSelf && facts.livesForProcess { continue }
                let kinds = stops(of: timer, type: type).map { stop in
                    let key = "\(stop.path):\(stop.line):\(stop.column)|\(timer.callback ?? "")"
                    if let known = classified[key] { return known }
                    let kind = classify(stop, type: type, callback: timer.callback)
                    classified[key] = kind
                    return kind
                }
                if timer.retainsSelf, !timer.stopsItself, !kinds.isEmpty,
                    kinds.allSatisfy({ if case .deinitOnly = $0 { true } else { false } })
                {
                    for case .deinitOnly(let places) in kinds { deinitOnlyNames[timer.name, default: []] += places }
                }
                guard var finding = timer.finding else { continue }
                if let weak = timer.ifWeakProperty, facts.properties[timer.name] == true { finding = weak }
                if kinds.contains(.lifecycle) { continue }
                let stopper: String? =
                    timer.stopsItself
                    ? "its own callback"
                    : kinds.lazy.compactMap { kind -> String? in
                        if case .ownCallback(let method) = kind { return "its own callback \(method)" }
                        return nil
                    }.first
                        ?? kinds.lazy.compactMap { kind -> String? in
                            if case .called(let method) = kind { return method }
                            return nil
                        }.first
                if let stopper, timer.retainsSelf {
                    finding.severity = .note
                    finding.message =
                        "retains self until \(stopper.hasPrefix("its own") ? stopper + " stops it" : "`\(stopper)` is called")"
                        + " (\(Advice.retainedThrough(finding.rule))); make sure that happens, or bind the timer to "
                        + "its owner"
                } else if let never = kinds.lazy.compactMap({ kind -> String? in
                    if case .neverCalled(let method) = kind { return method }
                    return nil
                }).first {
                    finding.message += "; `\(never)` would stop it, but nothing in the scan calls it"
                }
                result.append(finding)
            }
            for name in deinitOnlyNames.keys.sorted() {
                var seen: [Place] = []
                for place in deinitOnlyNames[name] ?? [] where !seen.contains(place) {
                    seen.append(place)
                    let language: SourceLanguage = place.path.hasSuffix(".swift") ? .swift : .objectiveC
                    let written = (stops[type] ?? []).first { $0.name == name }?.written ?? name
                    var site = Advice.Site(language: language, subject: written, typeName: type.isEmpty ? nil : type)
                    site.mainActor = facts.isMainActor
                    result.append(
                        Advice.finding(
                            .invalidateOnlyInDeinit, at: (place.line, place.column), path: place.path, site: site))
                }
            }
        }
        return result
    }
}
