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
    /// The look-alike is made with a closure that captures self (`Poller(every: 8) { self.refresh() }`): the
    /// finding stands only when the scan shows that the class runs the closure from a timer or source.
    var lookalikeTakesClosure = false
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
    /// The method it is made in (its key: `startPolling`), to recognise a stop that makes a new timer at once, a
    /// restart when the app returns to the foreground, and a timer its clients start through public API.
    var method = ""
    /// A subscription to a publisher typed only `AnyPublisher<Date, Never>` (a parameter or property): it counts
    /// when the scan erases a `Timer.publish` publisher to that type somewhere.
    var needsErasedTimerPublisher = false
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
    /// It runs only on a failure (under an `if`/`guard` about an error or failure, or in a `catch`): it is not
    /// the path the work normally takes, so it does not count as stopping the timer.
    var onlyOnFailure = false
    /// A call of a method of the project type kept under `name` (`self.fetcher?.halt()`): a stop only when that
    /// method of that type stops the type's own timer.
    var through: (type: String, method: String)? = nil
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
    /// Made in a static or class method, a static property's initializer or top-level code: for a construction
    /// (`Clock()`, `[Clock alloc]`), one that a singleton's accessor makes.
    var inStatic = false
    /// For a call named like the timer API (`invalidate`, `cancel`) on a property: the property's declared type,
    /// so that it counts as a call of that type's own method (`self.animator.invalidate()`).
    var receiverType: String? = nil
    /// Its offset and the block it is in (`path:offset`), to recognise a stop method called only to end the
    /// previous timer just before a new one is made.
    var position = -1
    var block = ""
}

/// What one file says about a type; files are merged by type name (a `.h` with its `.m`, extensions).
struct TypeFacts {
    /// The file declares the type (class, struct, `@interface`, `@implementation`), not only extends it.
    var declared = false
    /// An app delegate (`@main`, `UIApplicationDelegate`): it lives for the whole process, so a cycle through it
    /// leaks nothing.
    var livesForProcess = false
    /// It has a shared instance (`static let shared = Self()`, `+sharedInstance` whose `dispatch_once` makes an
    /// instance of the class): it lives for the whole process when the scan makes no other instance of it.
    var hasSharedInstance = false
    /// Methods that are public API (Swift `public`/`open` in a public type; Objective-C, declared in a header's
    /// `@interface`), by key.
    var publicMethods: Set<String> = []
    /// It keeps a target strongly (a strong property whose name contains `target`): a wrapper proven to retain.
    var retainsTarget = false
    /// Its timer block or event handler calls a closure it keeps or is given: it retains the closure it is made
    /// with.
    var forwardsClosure = false
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
        hasSharedInstance = hasSharedInstance || other.hasSharedInstance
        publicMethods.formUnion(other.publicMethods)
        retainsTarget = retainsTarget || other.retainsTarget
        forwardsClosure = forwardsClosure || other.forwardsClosure
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
    /// The file erases a `Timer.publish` publisher to a type-erased publisher (`.eraseToAnyPublisher()`).
    var erasesTimerPublisher = false
}

/// The scan's index of types, timers, the methods that stop them and where those are called; it turns the
/// held-back creation findings into warnings, notes or nothing.
struct ProjectIndex {
    private var timers: [String: [StoredTimer]] = [:]
    private var stops: [String: [TimerStop]] = [:]
    private var calls: [String: [MethodCall]] = [:]
    private(set) var types: [String: TypeFacts] = [:]
    private var calledBySystem: Set<String> = []
    private var erasesTimerPublisher = false
    /// The positions in `stops[type]` of each type's stops by storage name and by method, so that a timer's
    /// stops are found among those that can match it, not among every stop of its type.
    private var stopsByName: [String: [String: [Int]]] = [:]
    private var stopsByMethod: [String: [String: [Int]]] = [:]

    init(_ files: [FileFacts]) {
        for file in files {
            for (type, list) in file.timers { timers[type, default: []] += list }
            for (type, list) in file.stops { stops[type, default: []] += list }
            for call in file.calls { calls[call.callee, default: []].append(call) }
            for (type, facts) in file.types { types[type, default: TypeFacts()].merge(facts) }
            calledBySystem.formUnion(file.calledBySystem)
            erasesTimerPublisher = erasesTimerPublisher || file.erasesTimerPublisher
        }
        for (type, list) in stops {
            var byName: [String: [Int]] = [:]
            var byMethod: [String: [Int]] = [:]
            for (index, stop) in list.enumerated() {
                byName[stop.name, default: []].append(index)
                byMethod[stop.method, default: []].append(index)
            }
            stopsByName[type] = byName
            stopsByMethod[type] = byMethod
        }
    }

    /// Whether the type's instances live for the whole process: an app delegate, or a type with a shared
    /// instance that the scan constructs only in static code (the shared accessor, a static property, top-level
    /// code). A `static let preview = Clock()` next to screens that make their own `Clock()` is no evidence that
    /// the instance owning the timer is the shared one.
    func livesForProcess(_ type: String) -> Bool {
        guard let facts = types[type] else { return false }
        if facts.livesForProcess { return true }
        if isMadeOnlyByAppDelegate(type) { return true }
        guard facts.hasSharedInstance else { return false }
        return !(calls[type] ?? []).contains { !$0.inStatic && !($0.callerType.isEmpty && $0.callerMethod.isEmpty) }
    }

    /// Whether the scan makes instances of the type only in methods of an app delegate (the window's root
    /// controller made at launch, a status-bar controller): the app delegate lives for the whole process and
    /// keeps what it makes there, so a cycle through such an object leaks nothing either.
    func isMadeOnlyByAppDelegate(_ type: String) -> Bool {
        guard let made = calls[type], !made.isEmpty else { return false }
        return made.allSatisfy { call in
            !call.callerType.isEmpty && call.callerType != type && !call.inStatic
                && types[call.callerType]?.livesForProcess == true
        }
    }

    /// Words in a method's name that mean the app is going to the background, or a drag begins: a stop there is
    /// a pause when the type starts the timer again when the app returns or the drag ends.
    static func isBackgroundMethod(_ name: String) -> Bool {
        name.contains("Background") || name.contains("ResignActive") || name.contains("WillResign")
            || name.contains("BeginDragging")
    }

    static func isForegroundMethod(_ name: String) -> Bool {
        name.contains("Foreground") || name.contains("BecomeActive") || name.contains("EndDragging")
            || name.contains("EndDecelerating")
    }

    /// Whether `stop` only pauses `timer` while the app is in the background: it is in (or only called from) a
    /// background method, and a foreground method of the type makes the timer again (itself or through a method
    /// of self it calls).
    func isBackgroundPause(_ stop: TimerStop, of timer: StoredTimer, type: String) -> Bool {
        guard !timer.method.isEmpty else { return false }
        let callers = (calls[stop.method] ?? []).filter { $0.callerType == type }
        let inBackground =
            Self.isBackgroundMethod(stop.method)
            || (!callers.isEmpty && callers.allSatisfy { Self.isBackgroundMethod($0.callerMethod) })
        guard inBackground else { return false }
        if Self.isForegroundMethod(timer.method) { return true }
        return (calls[timer.method] ?? []).contains {
            $0.callerType == type && $0.onSelf && Self.isForegroundMethod($0.callerMethod)
        }
    }

    /// Whether the method that contains `stop` makes, after it and in the same block, a new timer that retains
    /// self and is kept under the same name: the stop replaces the cycle with another (`[link invalidate];
    /// link = [CADisplayLink displayLinkWithTarget:self …]`), it does not end it.
    private func restartsAfter(_ stop: TimerStop, made: [NameInMethod: [StoredTimer]]) -> Bool {
        guard !stop.block.isEmpty, !stop.method.isEmpty else { return false }
        return (made[NameInMethod(name: stop.name, method: stop.method)] ?? []).contains {
            $0.position > stop.position && $0.enclosingBlocks.contains(stop.block)
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
        /// Another method stops it and the scan calls that method (from these methods, for the note).
        case called(String, from: [String])
        /// Another method stops it, but nothing in the scan calls it.
        case neverCalled(String)
        /// A public method stops it and the timer is started through public API that the type does not call
        /// itself: library code whose clients (outside the scan) start and stop it.
        case publicAPI(String)
    }

    struct Place: Hashable {
        var path: String
        var line: Int
        var column: Int
    }

    /// A storage name and a method, or a stop's place and a timer's callback and method: dictionary keys that
    /// are compared field by field, never built as strings.
    private struct NameInMethod: Hashable {
        var name: String
        var method: String
    }

    private struct StopForTimer: Hashable {
        var place: Place
        var callback: String
        var method: String
    }

    /// The responder methods UIKit and AppKit call for the user's touches, presses, clicks and keys
    /// (`touchesBegan(_:with:)`, `-touchesBegan:withEvent:`, `mouseDown(with:)`): a stop in one runs when the user
    /// acts (the tap that dismisses the screen), although nothing in the scan calls it.
    static let eventHandlers: Set<String> = [
        "touchesBegan", "touchesMoved", "touchesEnded", "touchesCancelled", "pressesBegan", "pressesEnded",
        "motionBegan", "motionEnded", "mouseDown", "mouseUp", "rightMouseDown", "rightMouseUp", "otherMouseDown",
        "otherMouseUp", "keyDown", "keyUp",
    ]

    func classify(_ stop: TimerStop, type: String, timer: StoredTimer) -> StopKind {
        let callback = timer.callback
        if stop.inDeinit { return .deinitOnly([Place(path: stop.path, line: stop.line, column: stop.column)]) }
        if stop.inLifecycle { return .lifecycle }
        if let callback, stop.method == callback { return .ownCallback(stop.methodDisplay) }
        if stop.method.isEmpty { return .called("top-level code", from: []) }
        let callers = (calls[stop.method] ?? []).filter {
            !($0.callerType == type && $0.callerMethod == stop.method) && !($0.onSelf && $0.callerType != type)
                && ($0.receiverType.map { $0 == type } ?? true) && !replacesOnly($0, timer: timer, type: type)
        }
        if callers.isEmpty {
            if calledBySystem.contains(stop.method) || Self.eventHandlers.contains(stop.method) {
                return .called(stop.methodDisplay, from: [])
            }
            if isPublicAPI(stop, of: timer, type: type) { return .publicAPI(stop.methodDisplay) }
            return .neverCalled(stop.methodDisplay)
        }
        if callers.contains(where: \.inLifecycle) { return .lifecycle }
        if callers.allSatisfy({ $0.inDeinit && $0.callerType == type }) {
            return .deinitOnly(callers.map { Place(path: $0.path, line: $0.line, column: $0.column) })
        }
        if let callback, callers.contains(where: { $0.callerType == type && $0.callerMethod == callback }) {
            return .ownCallback(stop.methodDisplay)
        }
        var from: [String] = []
        for caller in callers where !caller.callerMethod.isEmpty {
            let name =
                caller.callerType == type || caller.callerType.isEmpty
                ? caller.callerMethod : "\(caller.callerType).\(caller.callerMethod)"
            if !from.contains(name) { from.append(name) }
            if from.count == 2 { break }
        }
        return .called(stop.methodDisplay, from: from)
    }

    /// Whether `call` is made by the method that makes `timer`, before it in the same block or one around it: the
    /// old timer is stopped there only to make the new one (`func start() { stop(); timer = Timer.scheduledTimer(…) }`), so
    /// the call never ends `timer` itself, as a stop written out in that place would not.
    func replacesOnly(_ call: MethodCall, timer: StoredTimer, type: String) -> Bool {
        guard !timer.method.isEmpty, call.callerType == type, call.callerMethod == timer.method, !call.block.isEmpty
        else { return false }
        return timer.enclosingBlocks.contains(call.block) && call.position < timer.position
    }

    /// A stop in a public method of a type whose timer is made in a public method that nothing in the scan calls
    /// (neither the type nor a client here): the library's clients start the timer and must stop it.
    func isPublicAPI(_ stop: TimerStop, of timer: StoredTimer, type: String) -> Bool {
        guard let facts = types[type], facts.publicMethods.contains(stop.method), !timer.method.isEmpty,
            facts.publicMethods.contains(timer.method)
        else { return false }
        // Started by nothing in the scan (neither the type itself nor a client here): its clients are elsewhere.
        return !(calls[timer.method] ?? []).contains { $0.callerType != type || $0.callerMethod != timer.method }
    }

    /// The stops that end `timer`: by its storage name, or on the parameter of its own callback (or on anything
    /// in its callback when the timer is not kept under a name this type shows, such as one a method returns).
    /// In the order of `stops[type]`.
    func stops(of timer: StoredTimer, type: String) -> [TimerStop] {
        guard let all = stops[type] else { return [] }
        var positions = timer.name.isEmpty ? [] : stopsByName[type]?[timer.name] ?? []
        if let callback = timer.callback {
            let inCallback = (stopsByMethod[type]?[callback] ?? []).filter { timer.name.isEmpty || all[$0].onParameter }
            if !inCallback.isEmpty { positions = Set(positions + inCallback).sorted() }
        }
        return positions.map { all[$0] }.filter { stop in
            guard !stop.onlyReplaces(timer), !stop.onlyOnFailure else { return false }
            if let through = stop.through, !stopsOwnTimer(through.type, in: through.method) { return false }
            return true
        }
    }

    /// Whether `method` of `type` stops the type's own timer, and makes none (a method that stops the old timer
    /// only to start a new one does not end the work).
    func stopsOwnTimer(_ type: String, in method: String) -> Bool {
        (stops[type] ?? []).contains { $0.method == method && $0.through == nil && !$0.onlyOnFailure }
            && !(timers[type] ?? []).contains { $0.method == method }
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
        var classified: [StopForTimer: StopKind] = [:]
        for type in timers.keys.sorted() {
            let facts = types[type] ?? TypeFacts()
            var deinitOnlyNames: [String: [Place]] = [:]
            let lives = livesForProcess(type)
            // The self-retaining timers of the type by name and the method that makes them, and the stops already
            // found to restart or pause, so that a type with thousands of timers is decided in linear time.
            var made: [NameInMethod: [StoredTimer]] = [:]
            for timer in timers[type] ?? [] where timer.retainsSelf && !timer.method.isEmpty {
                made[NameInMethod(name: timer.name, method: timer.method), default: []].append(timer)
            }
            var restarts: [Place: Bool] = [:]
            var pauses: [StopForTimer: Bool] = [:]
            for timer in timers[type] ?? [] {
                if let lookalike = timer.lookalikeType,
                    !(types[lookalike].map {
                        $0.declared && (timer.lookalikeTakesClosure ? $0.forwardsClosure : $0.retainsTarget)
                    } ?? false)
                {
                    continue
                }
                if let method = timer.rearmedFrom, !isRearmed(timer, from: method, type: type) { continue }
                if let property = timer.publisherProperty, !facts.publishers.contains(property) { continue }
                if timer.needsErasedTimerPublisher, !erasesTimerPublisher { continue }
                if let method = timer.methodReference, !facts.methods.contains(method) { continue }
                if let holder = timer.holderProperty, types[holder.type]?.properties[holder.property] != false {
                    continue
                }
                if timer.retainsSelf && lives { continue }
                var paused: TimerStop?
                let ending = stops(of: timer, type: type).filter { stop in
                    let place = Place(path: stop.path, line: stop.line, column: stop.column)
                    let restarted = restarts[place] ?? restartsAfter(stop, made: made)
                    restarts[place] = restarted
                    if restarted { return false }
                    let pauseKey = StopForTimer(place: place, callback: "", method: timer.method)
                    let isPause = pauses[pauseKey] ?? isBackgroundPause(stop, of: timer, type: type)
                    pauses[pauseKey] = isPause
                    if isPause {
                        paused = paused ?? stop
                        return false
                    }
                    return true
                }
                let kinds = ending.map { stop in
                    let key = StopForTimer(
                        place: Place(path: stop.path, line: stop.line, column: stop.column),
                        callback: timer.callback ?? "", method: timer.method)
                    if let known = classified[key] { return known }
                    let kind = classify(stop, type: type, timer: timer)
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
                            guard case .called(let method, let from) = kind else { return nil }
                            let path = from.map { "`\($0)`" }.joined(separator: ", ")
                            return from.isEmpty ? "`\(method)` is called" : "`\(method)` is called (from \(path))"
                        }.first
                        ?? kinds.lazy.compactMap { kind -> String? in
                            guard case .publicAPI(let method) = kind else { return nil }
                            return "`\(method)` is called; it is public API that the library's clients must call"
                        }.first
                if let stopper, timer.retainsSelf {
                    finding.severity = .note
                    finding.message =
                        "retains self until \(stopper.hasPrefix("its own") ? stopper + " stops it" : stopper)"
                        + " (\(Advice.retainedThrough(finding.rule))); make sure that happens, or bind the timer to "
                        + "its owner"
                } else if let paused {
                    finding.message +=
                        "; `\(paused.methodDisplay.isEmpty ? paused.written : paused.methodDisplay)` only pauses it "
                        + "(while the app is in the background or a drag lasts): it is started again afterwards"
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
                    let written = stopsByName[type]?[name]?.first.flatMap { stops[type]?[$0].written } ?? name
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
