import Foundation
import Testing

@testable import AuditCore

/// The project-wide rules of issue 24: a singleton needs evidence, a stop counts only on a path that ends the
/// cycle, a timer publisher can come from another file, a type's own `invalidate()` is a call of it, a local or a
/// retained timer is the stored one, and a library's public stop is its clients' to call.
struct StopPathTests {
    /// Scans `files` as one project; returns `(file, line, rule, severity, message)` for every finding.
    func scan(_ files: [String: String]) throws -> [(
        file: String, line: Int, rule: String, note: Bool, message: String
    )] {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("audit-stops-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (name, text) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return Auditor.audit(paths: [root.path]).findings.map {
            (URL(fileURLWithPath: $0.path).lastPathComponent, $0.line, $0.rule, $0.severity == .note, $0.message)
        }
    }

    func warnings(_ files: [String: String]) throws -> [String] {
        try scan(files).filter { !$0.note }.map { "\($0.file):\($0.line) \($0.rule)" }
    }

    // MARK: 1. Singletons need evidence

    static let swiftModel = """
        import Foundation
        final class RoundModel: NSObject {
            static var placeholder = RoundModel()
            var ticker: Timer?
            func begin() {
                ticker = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(tick), userInfo: nil, repeats: true)
            }
            @objc func tick() {}
        }
        """

    @Test func swiftStaticOfOwnTypeIsNoSingletonWhenOtherInstancesAreMade() throws {
        let screen = "import UIKit\nfinal class RoundScreen: UIViewController {\n    let model = RoundModel()\n}\n"
        #expect(
            try warnings(["RoundModel.swift": Self.swiftModel, "RoundScreen.swift": screen])
                == ["RoundModel.swift:6 timer-target-retain"])
        // Made only by the static property (and a static accessor): the shared instance lives for the process.
        let accessor = "final class RoundAccess {\n    static func make() -> RoundModel { RoundModel() }\n}\n"
        #expect(try warnings(["RoundModel.swift": Self.swiftModel, "RoundAccess.swift": accessor]).isEmpty)
        let nested = """
            import Foundation
            class Reminder {
                class var sharedInstance: Reminder {
                    struct Holder { static let instance = Reminder() }
                    return Holder.instance
                }
                var sip = Timer()
                func start() { sip = Timer.scheduledTimer(timeInterval: 9, target: self, selector: #selector(remind), userInfo: nil, repeats: true) }
                @objc func remind() {}
            }
            """
        #expect(try warnings(["Reminder.swift": nested]).isEmpty)
    }

    @Test func objcDispatchOnceMustMakeAnInstanceOfTheClass() throws {
        let formatter = """
            @implementation GateController
            + (NSDateFormatter *)gateFormatter {
                static NSDateFormatter *formatter;
                static dispatch_once_t once;
                dispatch_once(&once, ^{ formatter = [[NSDateFormatter alloc] init]; });
                return formatter;
            }
            - (void)viewDidLoad {
                _gateTimer = [NSTimer scheduledTimerWithTimeInterval:30 target:self selector:@selector(refresh) userInfo:nil repeats:YES];
            }
            - (void)refresh {}
            @end
            """
        #expect(try warnings(["GateController.m": formatter]) == ["GateController.m:9 timer-target-retain"])
        let singleton = """
            @implementation ClockSync
            + (instancetype)sharedSync {
                static ClockSync *sync;
                static dispatch_once_t once;
                dispatch_once(&once, ^{ sync = [[self alloc] init]; });
                return sync;
            }
            - (void)begin {
                _syncTimer = [NSTimer scheduledTimerWithTimeInterval:300 target:self selector:@selector(sync) userInfo:nil repeats:YES];
            }
            - (void)sync {}
            @end
            """
        #expect(try warnings(["ClockSync.m": singleton]).isEmpty)
        let otherInstance =
            "@implementation Inbox\n- (void)viewDidLoad {\n    _sync = [[ClockSync alloc] init];\n}\n@end\n"
        #expect(
            try warnings(["ClockSync.m": singleton, "Inbox.m": otherInstance]) == ["ClockSync.m:9 timer-target-retain"])
    }

    // MARK: 2. Stops that do not end the cycle

    @Test func stopThatMakesANewSelfTargetedTimerDoesNotCount() throws {
        let swift = """
            import UIKit
            final class CallScreen: UIViewController {
                var pulse: Timer?
                override func viewDidAppear(_ animated: Bool) {
                    pulse = Timer.scheduledTimer(timeInterval: 0.5, target: self, selector: #selector(beat), userInfo: nil, repeats: true)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    pulse?.invalidate()
                    pulse = Timer.scheduledTimer(timeInterval: 5, target: self, selector: #selector(idle), userInfo: nil, repeats: true)
                }
                @objc func beat() {}
                @objc func idle() {}
            }
            """
        #expect(
            try warnings(["CallScreen.swift": swift])
                == ["CallScreen.swift:5 timer-target-retain", "CallScreen.swift:9 timer-target-retain"])
        let objc = """
            @implementation Wave
            - (void)viewDidLoad {
                self.link = [CADisplayLink displayLinkWithTarget:self selector:@selector(draw:)];
            }
            - (void)viewWillDisappear:(BOOL)animated {
                [self.link invalidate];
                self.link = [CADisplayLink displayLinkWithTarget:self selector:@selector(idle:)];
            }
            @end
            """
        #expect(
            try warnings(["Wave.m": objc]) == [
                "Wave.m:3 display-link-target-retain", "Wave.m:7 display-link-target-retain",
            ])
    }

    @Test func backgroundPauseThatRestartsInTheForegroundIsNoStop() throws {
        let swift = """
            import UIKit
            final class Scores: UIViewController {
                var poll: Timer?
                func startPolling() {
                    poll = Timer.scheduledTimer(timeInterval: 10, target: self, selector: #selector(refresh), userInfo: nil, repeats: true)
                }
                @objc func applicationDidEnterBackground() { poll?.invalidate() }
                @objc func applicationWillEnterForeground() { startPolling() }
                @objc func refresh() {}
            }
            """
        let found = try scan(["Scores.swift": swift])
        #expect(found.map { "\($0.line) \($0.rule) \($0.note)" } == ["5 timer-target-retain false"])
        #expect(found.first?.message.contains("only pauses it") == true)
        // Without the restart, the app's going to the background is a stop that comes.
        let noRestart = swift.replacingOccurrences(of: "{ startPolling() }", with: "{}")
        #expect(try warnings(["Scores.swift": noRestart]).isEmpty)
    }

    @Test func selfStopOnlyOnAFailureIsNoStopAndTheNoteNamesThePath() throws {
        let failure = """
            import Foundation
            final class Upload {
                var status: Timer?
                var lastError: Error?
                func watch() {
                    status = Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { timer in
                        self.tick()
                        if let error = self.lastError { print(error); timer.invalidate() }
                    }
                }
                func tick() {}
            }
            """
        #expect(try warnings(["Upload.swift": failure]) == ["Upload.swift:7 block-timer-strong-self"])
        let objc = """
            @implementation Resend
            - (IBAction)request:(id)sender {
                resendTimer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(tick:) userInfo:nil repeats:YES];
            }
            - (void)tick:(NSTimer *)timer {
                if (lastError) [resendTimer invalidate];
            }
            @end
            """
        #expect(try warnings(["Resend.m": objc]) == ["Resend.m:3 timer-target-retain"])
        // The normal end of the count is a stop; a stop another method makes is named with where it is called.
        let countdown = objc.replacingOccurrences(of: "if (lastError)", with: "if (count == 180)")
        #expect(try warnings(["Resend.m": countdown]).isEmpty)
        let called = """
            import Foundation
            final class Frames: NSObject {
                var link: CADisplayLink?
                func start() { link = CADisplayLink(target: self, selector: #selector(step)) }
                @objc func step() {}
                func stopFrames() { link?.invalidate() }
            }
            final class Slide {
                let frames = Frames()
                func finish() { frames.stopFrames() }
            }
            """
        let note = try scan(["Frames.swift": called])
        #expect(note.map(\.note) == [true])
        #expect(note.first?.message.contains("`stopFrames()` is called (from `Slide.finish`)") == true)
    }

    // MARK: 3. Publishers passed across files

    @Test func timerPublisherHandedInAsAParameterOrErasedProperty() throws {
        let service =
            "import Combine\nfinal class Ticks {\n    let ticks = Timer.publish(every: 1, on: .main, in: .common).autoconnect()\n}\n"
        let model = """
            import Combine
            final class Dash {
                var label = ""
                var bag = Set<AnyCancellable>()
                init(ticks: Publishers.Autoconnect<Timer.TimerPublisher>) {
                    ticks.sink { _ in self.label = "" }.store(in: &bag)
                }
            }
            """
        #expect(
            try warnings(["Ticks.swift": service, "Dash.swift": model]) == ["Dash.swift:6 block-timer-strong-self"])
        let erased = """
            import Combine
            final class Countdown {
                var left = 60
                var stream: AnyPublisher<Date, Never>
                var subscription: AnyCancellable?
                init(stream: AnyPublisher<Date, Never>) { self.stream = stream }
                func start() { subscription = stream.sink { _ in self.left -= 1 } }
            }
            """
        let source = """
            import Combine
            enum Seconds {
                static func every() -> AnyPublisher<Date, Never> {
                    Timer.publish(every: 1, on: .main, in: .common).autoconnect().eraseToAnyPublisher()
                }
            }
            """
        #expect(
            try warnings(["Countdown.swift": erased, "Seconds.swift": source]) == [
                "Countdown.swift:7 block-timer-strong-self"
            ])
        // No timer publisher is erased in the scan: a Date publisher is not assumed to be a timer.
        #expect(try warnings(["Countdown.swift": erased]).isEmpty)
    }

    // MARK: 4. The class's own invalidate() / cancel()

    @Test func ownInvalidateCalledThroughAPropertyIsACallOfIt() throws {
        let animator = """
            import UIKit
            final class Ripple {
                var link: CADisplayLink?
                func begin() { link = CADisplayLink(target: self, selector: #selector(frame)) }
                @objc func frame() {}
                func invalidate() { link?.invalidate() }
            }
            """
        let screen = """
            import UIKit
            final class RippleScreen: UIViewController {
                let ripple = Ripple()
                override func viewWillDisappear(_ animated: Bool) { self.ripple.invalidate() }
            }
            """
        #expect(try warnings(["Ripple.swift": animator, "RippleScreen.swift": screen]).isEmpty)
        // A plain timer's invalidate elsewhere is not a call of Ripple's.
        let other = """
            import UIKit
            final class Other: UIViewController {
                weak var hide: Timer?
                override func viewWillDisappear(_ animated: Bool) { hide?.invalidate() }
            }
            """
        #expect(
            try warnings(["Ripple.swift": animator, "Other.swift": other]) == [
                "Ripple.swift:4 display-link-target-retain"
            ])
        let objcView = """
            @interface Meter : UIView
            - (void)invalidate;
            @end
            @implementation Meter {
                CADisplayLink *_link;
            }
            - (void)start { _link = [CADisplayLink displayLinkWithTarget:self selector:@selector(sample:)]; }
            - (void)sample:(CADisplayLink *)link {}
            - (void)invalidate { [_link invalidate]; }
            @end
            """
        let objcScreen = """
            @interface Recorder ()
            @property (nonatomic, strong) Meter *meter;
            @end
            @implementation Recorder
            - (void)viewWillDisappear:(BOOL)animated { [self.meter invalidate]; }
            @end
            """
        #expect(try warnings(["Meter.m": objcView, "Recorder.m": objcScreen]).isEmpty)
    }

    @Test func ownCancelThroughAnOptionalChainInAClosure() throws {
        let poller = """
            import Foundation
            final class Parcel: NSObject {
                var timer: Timer?
                func watch() { timer = Timer.scheduledTimer(timeInterval: 20, target: self, selector: #selector(ask), userInfo: nil, repeats: true) }
                @objc func ask() {}
                func cancel() { timer?.invalidate() }
            }
            """
        let screen = """
            import UIKit
            final class Tracking: UIViewController {
                let parcel = Parcel()
                func close() {
                    run { [weak self] in self?.parcel.cancel() }
                }
                func run(_ body: @escaping () -> Void) {}
            }
            """
        let found = try scan(["Parcel.swift": poller, "Tracking.swift": screen])
        #expect(found.map(\.note) == [true])
    }

    // MARK: 5. Aliases and manual retain

    @Test func localAliasesAndRetainedTimersAreTheStoredTimer() throws {
        let swift = """
            import UIKit
            final class Air: UIViewController {
                var reading: Timer?
                var link: CADisplayLink?
                override func viewDidAppear(_ animated: Bool) {
                    reading = Timer.scheduledTimer(timeInterval: 60, target: self, selector: #selector(pull), userInfo: nil, repeats: true)
                    link = CADisplayLink(target: self, selector: #selector(pull))
                }
                override func viewWillDisappear(_ animated: Bool) {
                    guard let t = self.reading else { return }
                    t.invalidate()
                    if let l = link { l.invalidate() }
                }
                @objc func pull() {}
            }
            """
        #expect(try warnings(["Air.swift": swift]).isEmpty)
        let objcAlias = """
            @implementation Parallax
            - (void)viewDidLoad { _parallaxLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(shift:)]; }
            - (void)viewWillDisappear:(BOOL)animated {
                CADisplayLink *link = self.parallaxLink;
                [link invalidate];
            }
            @end
            """
        #expect(try warnings(["Parallax.m": objcAlias]).isEmpty)
        let mrc = """
            @implementation Transfers
            - (void)viewWillAppear:(BOOL)animated {
                transferTimer_ = [[NSTimer scheduledTimerWithTimeInterval:5.0 target:self selector:@selector(reload) userInfo:nil repeats:YES] retain];
            }
            - (void)viewWillDisappear:(BOOL)animated {
                [transferTimer_ invalidate];
                [transferTimer_ release];
            }
            @end
            """
        #expect(try warnings(["Transfers.m": mrc]).isEmpty)
        let deallocOnly = mrc.replacingOccurrences(
            of: "- (void)viewWillDisappear:(BOOL)animated", with: "- (void)dealloc")
        #expect(
            try warnings(["Transfers.m": deallocOnly])
                == ["Transfers.m:3 timer-target-retain", "Transfers.m:6 invalidate-only-in-deinit"])
    }

    // MARK: 6. Library code whose stop is public

    @Test func publicStopOfLibraryCodeIsANoteNamingIt() throws {
        let library = """
            import UIKit
            open class Orbit: UIView {
                var link: CADisplayLink?
                public func startOrbiting() { link = CADisplayLink(target: self, selector: #selector(step)) }
                public func stopOrbiting() { link?.invalidate() }
                @objc func step() {}
            }
            """
        let found = try scan(["Orbit.swift": library])
        #expect(found.map { "\($0.rule) \($0.note)" } == ["display-link-target-retain true"])
        #expect(found.first?.message.contains("`stopOrbiting()` is called; it is public API") == true)
        // App code (internal) whose stop nothing calls: a warning.
        let app = library.replacingOccurrences(of: "open class", with: "final class")
            .replacingOccurrences(of: "public func", with: "func")
        #expect(try warnings(["Orbit.swift": app]) == ["Orbit.swift:4 display-link-target-retain"])
        // A type that starts the timer itself (in a method of its own) stops it itself, or leaks.
        let startsItself = library.replacingOccurrences(
            of: "@objc func step() {}",
            with: "@objc func step() {}\n    override open func didMoveToWindow() { startOrbiting() }")
        #expect(try warnings(["Orbit.swift": startsItself]) == ["Orbit.swift:4 display-link-target-retain"])
        let header = "@interface Banner : UIView\n- (void)addBannerTimer;\n- (void)invalidateBannerTimer;\n@end\n"
        let body = """
            @implementation Banner
            - (void)addBannerTimer { self.bannerTimer = [NSTimer scheduledTimerWithTimeInterval:3 target:self selector:@selector(next) userInfo:nil repeats:YES]; }
            - (void)invalidateBannerTimer { [self.bannerTimer invalidate]; }
            - (void)next {}
            @end
            """
        let objc = try scan(["Banner.h": header, "Banner.m": body])
        #expect(objc.map { "\($0.rule) \($0.note)" } == ["timer-target-retain true"])
        // Without the header, the stop is no declared API: a warning.
        #expect(try warnings(["Banner.m": body]) == ["Banner.m:2 timer-target-retain"])
    }

    // MARK: After the held-out batch

    @Test func sharedAccessorThroughAMacroAndAWrapperThatForwardsItsTarget() throws {
        let socket = """
            @implementation PulseLink
            + (PulseLink *)sharedLink {
                MAKE_SHARED(^{ return [[self alloc] init]; });
            }
            - (void)connect {
                self.pulse = [NSTimer scheduledTimerWithTimeInterval:30 target:self selector:@selector(ping) userInfo:nil repeats:YES];
            }
            - (void)ping {}
            @end
            """
        #expect(try warnings(["PulseLink.m": socket]).isEmpty)
        let wrapper = """
            import UIKit
            class DropTimer: NSObject {
                var link: CADisplayLink!
                init(target: AnyObject, selector: Selector) {
                    link = CADisplayLink(target: target, selector: selector)
                    link.add(to: .current, forMode: .default)
                }
            }
            """
        let game = """
            import UIKit
            final class Game: UIViewController {
                var drops: DropTimer!
                override func viewDidLoad() { drops = DropTimer(target: self, selector: #selector(step)) }
                @objc func step() {}
            }
            """
        #expect(try warnings(["DropTimer.swift": wrapper, "Game.swift": game]) == ["Game.swift:4 timer-target-retain"])
        // A wrapper that keeps its target weakly and hands the link itself as target: no cycle through the caller.
        let weakWrapper = wrapper.replacingOccurrences(
            of: "CADisplayLink(target: target,", with: "CADisplayLink(target: self,")
        #expect(
            try warnings(["DropTimer.swift": weakWrapper, "Game.swift": game]) == [
                "DropTimer.swift:5 display-link-target-retain"
            ])
    }
}
