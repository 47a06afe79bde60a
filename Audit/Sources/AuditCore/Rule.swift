/// The rules timerkit-audit checks. Each finding carries one rule id; `--disable` and suppression
/// comments name them.
public enum Rule: String, CaseIterable, Codable, Sendable {
    /// A repeating `NSTimer`/`Timer` whose target is `self` or another object that holds the timer.
    case timerTargetRetain = "timer-target-retain"
    /// A `CADisplayLink` whose target is `self`.
    case displayLinkTargetRetain = "display-link-target-retain"
    /// A `weakSelf` passed as the target: the timer stores it strongly.
    case weakselfAsTarget = "weakself-as-target"
    /// A self-retaining timer kept in a `weak` property: the run loop still retains the timer.
    case weakTimerPropertyNoFix = "weak-timer-property-no-fix"
    /// A block timer, dispatch timer handler or `Timer.publish` sink that captures `self` strongly.
    case blockTimerStrongSelf = "block-timer-strong-self"
    /// The weakSelf/strongSelf dance done wrong: the strong reference is made outside the block.
    case strongselfEscapes = "strongself-escapes"
    /// A self-retaining timer invalidated only in `deinit`/`dealloc`, which cannot run while it lives.
    case invalidateOnlyInDeinit = "invalidate-only-in-deinit"
    /// A repeating timer in the default run-loop mode inside a scroll, table or collection class.
    case defaultModeInScrollView = "default-mode-in-scroll-view"
    /// A dispatch source suspended and then released: libdispatch crashes on release of a suspended source.
    case dispatchSourceSuspendedRelease = "dispatch-source-suspended-release"
    /// A dispatch source resumed twice without a suspend between: libdispatch crashes.
    case dispatchSourceDoubleResume = "dispatch-source-double-resume"
    /// A repeating `Timer` (or a connected `Timer.publish`) made in a SwiftUI view that nothing in the view
    /// stops: no object cycle, but a timer that runs for ever, one more each time the code runs.
    case swiftuiTimerNeverStopped = "swiftui-timer-never-stopped"

    /// The languages the rule applies to.
    public var languages: Set<SourceLanguage> {
        self == .swiftuiTimerNeverStopped ? [.swift] : [.swift, .objectiveC]
    }

    /// Whether any of a type's names (its own, its superclass's) marks it as scroll-related for
    /// ``defaultModeInScrollView``: a word starting with `Scroll`, or `TableView`/`CollectionView`, in a name.
    static func isScrollRelated(_ names: [String]) -> Bool {
        names.contains { name in
            let words = camelCaseWords(name.split(separator: ".").last.map(String.init) ?? name)
            return words.contains { $0.hasPrefix("Scroll") }
                || zip(words, words.dropFirst()).contains { pair in
                    ["Table", "Collection"].contains(pair.0) && pair.1 == "View"
                }
        }
    }

    /// `UITableViewCell` → `UI`, `Table`, `View`, `Cell`; `TabletSyncService` → `Tablet`, `Sync`, `Service`.
    static func camelCaseWords(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
            let previousIsLower = index > 0 && characters[index - 1].isLowercase
            if character.isUppercase, !current.isEmpty, previousIsLower || nextIsLower {
                words.append(current)
                current = ""
            }
            if character == "_" {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The rule's id, as printed in brackets after each finding.
    public var id: String { rawValue }

    /// The rule's default severity; a retaining timer that another method stops is reported as a note.
    public var severity: Severity {
        self == .defaultModeInScrollView ? .note : .warning
    }

    /// One line that says what the rule finds.
    public var summary: String {
        switch self {
        case .timerTargetRetain:
            "A repeating timer retains its target; a target that is self (or holds the timer) is never freed."
        case .displayLinkTargetRetain:
            "A display link retains its target; a target that is self is never freed."
        case .weakselfAsTarget:
            "Passing weakSelf as a timer target still retains self: the timer stores a strong reference."
        case .weakTimerPropertyNoFix:
            "A weak timer property does not break the cycle: the run loop retains the timer."
        case .blockTimerStrongSelf:
            "A repeating timer's block (or dispatch handler, or Timer.publish sink) captures self strongly."
        case .strongselfEscapes:
            "The strong reference of the weakSelf/strongSelf dance is made outside the block and captured by it."
        case .invalidateOnlyInDeinit:
            "A timer that retains self is invalidated only in deinit/dealloc, which cannot run while it lives."
        case .defaultModeInScrollView:
            "A repeating timer in the default run-loop mode pauses while a scroll view tracks."
        case .dispatchSourceSuspendedRelease:
            "A dispatch source released while suspended crashes libdispatch."
        case .dispatchSourceDoubleResume:
            "A dispatch source resumed more often than suspended crashes libdispatch."
        case .swiftuiTimerNeverStopped:
            "A repeating timer made in a SwiftUI view is never invalidated or cancelled: it runs for ever."
        }
    }
}
