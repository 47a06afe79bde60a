/// The words of each finding: what leaks and why, and the fix (a TimerKit call or the correct weak pattern).
/// Analyzers pass the names they saw; the wording of each rule lives here once.
enum Advice {
    /// The kind of timer a finding is about, which decides the fix.
    enum TimerKind {
        /// `NSTimer`/`Timer` with target–action.
        case targetAction
        /// `NSTimer`/`Timer` with a block.
        case block
        /// `CADisplayLink`.
        case displayLink
        /// A GCD timer source's event handler.
        case dispatchHandler
        /// A `Timer.publish` subscription.
        case publisher
    }

    /// The site-specific facts a message mentions.
    struct Site {
        var language: SourceLanguage
        var kind: TimerKind = .targetAction
        /// The target, the captured name, the property or the source, as written.
        var subject: String = "self"
        /// The enclosing type, when known (`Type` otherwise).
        var typeName: String?
        /// The method the selector names, when known (`method` otherwise).
        var method: String?
        /// A line the message refers back to (the suspend, the first resume).
        var earlierLine: Int?
        /// Whether the type is main-actor isolated (`@MainActor`, a UIKit view or view controller): TimerKit's
        /// main-actor overloads, without `on:`, are the ones that compile there.
        var mainActor = false
        /// The timer's interval in seconds as written, when it is a number literal.
        var interval: String?
        /// A one-shot timer that its callback schedules again: a repeating timer in effect.
        var rearms = false
    }

    /// How a rule's timer holds self, for the note of a timer that another method stops.
    static func retainedThrough(_ rule: String) -> String {
        switch Rule(rawValue: rule) {
        case .timerTargetRetain, .displayLinkTargetRetain, .weakselfAsTarget: "through its target"
        case .strongselfEscapes: "through the strong reference its block captures"
        default: "through its block or handler"
        }
    }

    /// `.every(.seconds(2))` with the timer's own interval, or a placeholder to fill in.
    static func schedule(_ site: Site) -> String {
        ".every(.seconds(\(site.interval ?? "interval")))"
    }

    /// TimerKit's owner-bound call for the site: without `on:` in a main-actor type.
    static func ownerCall(_ site: Site) -> String {
        let body = site.mainActor && site.method != nil ? "owner.\(site.method ?? "")()" : "…"
        return "Ticker.schedule(\(schedule(site)), \(site.mainActor ? "" : "on: .main, ")owner: self) "
            + "{ owner, tick in \(body) }"
    }

    /// TimerKit's target–action call for the site: without `on:` in a main-actor type.
    static func targetCall(_ site: Site) -> String {
        "Ticker.schedule(\(schedule(site)), \(site.mainActor ? "" : "on: .main, ")target: self, "
            + "action: \(site.typeName ?? "Type").\(site.method ?? "method"))"
    }

    /// Whether a superclass named `name` is a main-actor UIKit/AppKit class (UIResponder and AppKit's views and
    /// controllers are `@MainActor`): `UIViewController`, `UITableViewCell`, `NSView`, ….
    static func isMainActorSuperclass(_ name: String) -> Bool {
        let bare = name.split(separator: ".").last.map(String.init) ?? name
        guard bare.hasPrefix("UI") || bare.hasPrefix("NS") else { return false }
        let suffixes = ["View", "Controller", "Cell", "Responder", "Window", "Control", "Button", "Label", "Bar"]
        return suffixes.contains { bare.hasSuffix($0) }
    }

    /// What a weak proxy is: Foundation has none, so it is described rather than named as an API.
    static let weakProxy =
        "a weak proxy (an NSProxy subclass that forwards messages to a weak reference to self, e.g. YYWeakProxy; "
        + "Foundation has none, so add or write one)"

    static func finding(_ rule: Rule, at location: (line: Int, column: Int), path: String, site: Site) -> Finding {
        Finding(
            path: path, line: location.line, column: location.column, rule: rule.id, severity: rule.severity,
            message: message(rule, site)
                + (site.rearms
                    ? " (a one-shot timer that its own callback schedules again is a repeating timer in effect)" : ""),
            fix: fix(rule, site))
    }

    static func message(_ rule: Rule, _ site: Site) -> String {
        let subject = site.subject
        switch rule {
        case .timerTargetRetain:
            return "repeating timer retains its target '\(subject)' until it is invalidated, and the run loop "
                + "retains the timer: '\(subject)' is never freed and its deinit/dealloc never runs"
        case .displayLinkTargetRetain:
            return "CADisplayLink retains its target '\(subject)' until it is invalidated, and the run loop "
                + "retains the link: '\(subject)' is never freed and keeps receiving frames"
        case .weakselfAsTarget:
            return "'\(subject)' is a weak variable, but the timer stores the object it points to strongly: "
                + "passing it as the target retains self exactly as passing self does"
        case .weakTimerPropertyNoFix:
            return "the timer is kept in the weak property '\(subject)', which does not break the cycle: the "
                + "run loop retains the timer and the timer retains self (\(retainPath(site.kind)))"
        case .blockTimerStrongSelf:
            switch site.kind {
            case .dispatchHandler:
                return "the dispatch source is stored on self and retains its event handler, which captures "
                    + "self strongly (\(subject)): a cycle that lasts until the source is cancelled"
            case .publisher where subject.hasSuffix("which keeps the subscription"):
                return "the Timer.publish subscription is kept by an object that its closure captures strongly "
                    + "(\(subject)): a cycle that lasts until the subscription is cancelled"
            case .publisher:
                return "the Timer.publish subscription is stored on self and its closure captures self "
                    + "strongly (\(subject)): a cycle that lasts until the subscription is cancelled"
            default:
                return "the repeating timer's block captures self strongly (\(subject)); the run loop retains "
                    + "the timer and the timer retains the block, so self is never freed"
            }
        case .strongselfEscapes:
            return "'\(subject)' is a strong reference to self made outside the block; the block captures it "
                + "strongly, so the weak reference buys nothing and self is never freed"
        case .invalidateOnlyInDeinit:
            return "'\(subject)' retains self and is stopped only in deinit/dealloc, which cannot run while "
                + "the timer retains self: the timer never stops"
        case .defaultModeInScrollView:
            return "repeating timer in the default run-loop mode inside the scroll-related type "
                + "'\(site.typeName ?? "?")': it pauses while a scroll view tracks (the tracking mode)"
        case .dispatchSourceSuspendedRelease:
            return "dispatch source '\(subject)' is released while suspended (suspended at line "
                + "\(site.earlierLine ?? 0)): libdispatch crashes when a suspended object is released"
        case .swiftuiTimerNeverStopped:
            return "repeating timer made in the SwiftUI view '\(subject)' is never invalidated or cancelled in it: "
                + "it keeps firing after the view goes, and another one starts each time this code runs"
        case .dispatchSourceDoubleResume:
            return "dispatch source '\(subject)' is resumed again after the resume at line "
                + "\(site.earlierLine ?? 0) with no suspend between: libdispatch crashes on an unbalanced resume"
        }
    }

    private static func retainPath(_ kind: TimerKind) -> String {
        switch kind {
        case .targetAction, .displayLink: "through its target"
        default: "through its block"
        }
    }

    static func fix(_ rule: Rule, _ site: Site) -> String {
        let swift = site.language == .swift
        switch rule {
        case .timerTargetRetain, .weakselfAsTarget, .displayLinkTargetRetain, .weakTimerPropertyNoFix,
            .blockTimerStrongSelf:
            return timerFix(site, swift: swift)
        case .strongselfEscapes:
            return swift
                ? "capture weakly in this closure too, `{ [weak self] _ in guard let self else { return } … }`, "
                    + "or use `\(ownerCall(site))`"
                : "make the strong reference inside the block: `__strong typeof(weakSelf) strongSelf = weakSelf; "
                    + "if (!strongSelf) return;` as the block's first statement, and use only strongSelf there"
        case .invalidateOnlyInDeinit:
            return swift
                ? "stop it when the work ends (for example in viewWillDisappear), or bind it to its owner: "
                    + "`\(ownerCall(site))` stops by itself when the owner goes away, with nothing to invalidate in deinit"
                : "invalidate it when the work ends (for example in viewWillDisappear:), or give the timer "
                    + "\(weakProxy) as its target so that dealloc can run and invalidate it"
        case .defaultModeInScrollView:
            return swift
                ? "add it in the common modes, `RunLoop.main.add(timer, forMode: .common)`, or use "
                    + "`\(ownerCall(site))` (TimerKit's run-loop context uses the common modes)"
                : "add it in the common modes: `[[NSRunLoop mainRunLoop] addTimer:timer "
                    + "forMode:NSRunLoopCommonModes]`"
        case .dispatchSourceSuspendedRelease:
            return
                (swift
                ? "call `resume()` before the last reference goes (then `cancel()`)"
                : "call `dispatch_resume` before releasing it (then `dispatch_source_cancel`)")
                + ", or use a TimerKit `Ticker` on `.dispatch(queue)`, whose pause()/resume()/cancel() "
                + "may be called in any order"
        case .swiftuiTimerNeverStopped:
            return "use `Timer.publish(every: 1, on: .main, in: .common).autoconnect()` with `.onReceive`, which "
                + "SwiftUI cancels when the view goes, or keep the timer in an observable model and invalidate it in "
                + "`.onDisappear`; TimerKit: `Ticker.schedule(.every(.seconds(1)), owner: model) { owner, tick in … }`"
        case .dispatchSourceDoubleResume:
            return "resume only a suspended source (keep a flag), or use a TimerKit `Ticker` on "
                + "`.dispatch(queue)`: resuming a running ticker does nothing"
        }
    }

    private static func timerFix(_ site: Site, swift: Bool) -> String {
        switch (site.kind, swift) {
        case (.targetAction, true):
            return "use `\(targetCall(site))` "
                + "(TimerKit holds the target weakly and stops when it goes away), or pass a weak proxy as target"
        case (.targetAction, false):
            return "pass \(weakProxy) as the target, which invalidates the timer once self is gone, or move the "
                + "timer to Swift with `\(targetCall(site))`"
        case (.displayLink, true):
            return "subscribe with the owner held weakly: `FrameSource.display().subscribe(owner: self) "
                + "{ owner, frame in … }`, or pass a weak proxy as target"
        case (.displayLink, false):
            return "pass \(weakProxy) as the display link's target and invalidate the link in dealloc, or use "
                + "TimerKit's `FrameSource.display().subscribe(owner: self) { owner, frame in … }` from Swift"
        case (.block, true), (.dispatchHandler, true), (.publisher, true):
            return "use `\(ownerCall(site))` "
                + "(TimerKit passes the owner in, held weakly), or capture `[weak self]` and "
                + "`guard let self else { return }` inside the closure"
        default:
            return "capture weakly: `__weak typeof(self) weakSelf = self;` before the block, and "
                + "`__strong typeof(weakSelf) strongSelf = weakSelf; if (!strongSelf) return;` as its first "
                + "statement; or use TimerKit's `Ticker.schedule(…, owner: self) { owner, tick in … }` from Swift"
        }
    }
}
