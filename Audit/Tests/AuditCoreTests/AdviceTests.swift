import Testing

@testable import AuditCore

/// The fixes must be code that compiles where the finding is: TimerKit's main-actor overloads (no `on:`) in
/// main-actor types, the timer's own interval, and no invented Objective-C API.
struct AdviceTests {
    func fixes(_ source: String, _ language: SourceLanguage = .swift) -> [String] {
        let path = language == .swift ? "a.swift" : "a.m"
        return Auditor.audit(source: source, path: path, language: language).findings.map(\.fix)
    }

    @Test func mainActorTypesGetTheMainActorFormWithoutOn() {
        let controller = """
            final class Clock: UIViewController {
                var timer: Timer?
                func start() {
                    timer = Timer.scheduledTimer(timeInterval: 2.5, target: self, selector: #selector(tick), userInfo: nil, repeats: true)
                    Timer.scheduledTimer(withTimeInterval: 3, repeats: true) { _ in self.tick() }
                }
                @objc func tick() {}
            }

            """
        let found = fixes(controller)
        #expect(found.count == 2)
        #expect(
            found.contains { $0.contains("`Ticker.schedule(.every(.seconds(2.5)), target: self, action: Clock.tick)`") }
        )
        #expect(
            found.contains { $0.contains("`Ticker.schedule(.every(.seconds(3)), owner: self) { owner, tick in … }`") })
        #expect(!found.contains { $0.contains("on: .main") })

        let annotated = controller.replacingOccurrences(
            of: "final class Clock: UIViewController", with: "@MainActor final class Clock")
        #expect(fixes(annotated).allSatisfy { !$0.contains("on: .main") })
    }

    @Test func otherTypesKeepOnMainAndAPlaceholderForAnUnknownInterval() {
        let source = """
            final class Poller {
                var timer: Timer?
                func start(every seconds: Double) {
                    timer = Timer.scheduledTimer(timeInterval: seconds, target: self, selector: #selector(poll), userInfo: nil, repeats: true)
                }
                @objc func poll() {}
            }

            """
        #expect(
            fixes(source) == [
                "use `Ticker.schedule(.every(.seconds(interval)), on: .main, target: self, action: Poller.poll)` "
                    + "(TimerKit holds the target weakly and stops when it goes away), or pass a weak proxy as target"
            ])
    }

    @Test func objectiveCFixDescribesAWeakProxyInsteadOfNamingAnAPI() {
        let source = """
            @interface Clock : UIViewController
            @end
            @implementation Clock
            - (void)start {
                [NSTimer scheduledTimerWithTimeInterval:4 target:self selector:@selector(tick) userInfo:nil repeats:YES];
            }
            @end

            """
        let found = fixes(source, .objectiveC)
        #expect(found.count == 1)
        #expect(found.allSatisfy { !$0.contains("WeakProxy proxyWithTarget") && $0.contains("NSProxy subclass") })
        #expect(
            found.allSatisfy { $0.contains("`Ticker.schedule(.every(.seconds(4)), target: self, action: Clock.tick)`") }
        )
    }
}

/// The scroll check matches words of the type's name or superclass, not substrings.
struct ScrollRelatedTests {
    @Test func wholeWordsOnly() {
        for name in [
            "UIScrollView", "ParallaxScrollView", "FeedTableViewController", "UICollectionViewCell",
            "ScrollingTicker", "MyModule.UITableView",
        ] {
            #expect(Rule.isScrollRelated([name]), "\(name)")
        }
        for name in ["TabletSyncService", "CollectionManager", "TimetableModel", "Controller"] {
            #expect(!Rule.isScrollRelated([name]), "\(name)")
        }
    }
}
