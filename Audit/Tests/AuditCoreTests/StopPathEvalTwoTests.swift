import Foundation
import Testing

@testable import AuditCore

/// The rules changed for the batch `issue-24-eval2` of the corpus: a stop method that the starter calls only
/// to replace the old timer, a timer kept through key-value coding, an object only the app delegate makes, and a
/// project type that runs the closure it is made with from a dispatch source.
extension StopPathTests {
    // MARK: A stop method called only to replace the old timer

    static let swiftTape = """
        import UIKit
        class TapeController: UIViewController {
            var tapeTimer: Timer?
            override func viewDidLoad() {
                super.viewDidLoad()
                armTape()
            }
            deinit {
                endTape()
            }
            func endTape() {
                tapeTimer?.invalidate()
                tapeTimer = nil
            }
            func armTape() {
                endTape()
                tapeTimer = Timer.scheduledTimer(timeInterval: 0.1, target: self, selector: #selector(shift), userInfo: nil, repeats: true)
            }
            @objc func shift() {}
        }
        """

    @Test func swiftStopCalledOnlyByTheStarterAndDeinitIsAWarning() throws {
        #expect(
            try warnings(["TapeController.swift": Self.swiftTape])
                == ["TapeController.swift:9 invalidate-only-in-deinit", "TapeController.swift:17 timer-target-retain"])
        // Another caller that ends the work still counts: a note, not a warning.
        let done = Self.swiftTape.replacingOccurrences(
            of: "@objc func shift() {}", with: "@objc func shift() {}\n    @IBAction func done() { endTape() }")
        #expect(try warnings(["TapeController.swift": done]).isEmpty)
    }

    @Test func swiftStopInAnotherBranchOfTheStarterStillCounts() throws {
        let toggle = """
            import UIKit
            class FlashController: UIViewController {
                var flashTimer: Timer?
                func endFlash() {
                    flashTimer?.invalidate()
                    flashTimer = nil
                }
                @IBAction func toggleFlash() {
                    if flashTimer != nil {
                        endFlash()
                    } else {
                        flashTimer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(flash), userInfo: nil, repeats: true)
                    }
                }
                @objc func flash() {}
            }
            """
        let found = try scan(["FlashController.swift": toggle])
        #expect(found.map { "\($0.line) \($0.rule) \($0.note)" } == ["12 timer-target-retain true"])
    }

    @Test func objcStopCalledOnlyByTheStarterAndDeallocIsAWarning() throws {
        let source = """
            @implementation BeaconView
            - (void)dealloc { [self stopBeacon]; }
            - (void)stopBeacon { [_beaconTimer invalidate]; _beaconTimer = nil; }
            - (void)startBeacon {
                [self stopBeacon];
                _beaconTimer = [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(blink) userInfo:nil repeats:YES];
            }
            - (void)blink {}
            @end
            """
        #expect(
            try warnings(["BeaconView.m": source])
                == ["BeaconView.m:2 invalidate-only-in-deinit", "BeaconView.m:6 timer-target-retain"])
    }

    // MARK: A timer kept through key-value coding

    static let objcHint = """
        @implementation HintWindow
        - (void)fadeOut {
            [self setValue:[NSTimer scheduledTimerWithTimeInterval:0.01 target:self selector:@selector(fadeTick:) userInfo:nil repeats:YES] forKey:@"fadeTimer"];
        }
        - (void)fadeTick:(id)sender {
            if ([self alphaValue] <= 0) {
                [fadeTimer invalidate];
                [self setValue:nil forKey:@"fadeTimer"];
            }
        }
        @end
        """

    @Test func objcTimerStoredWithSetValueForKeyIsThatProperty() throws {
        // Its own callback stops it: a note.
        let found = try scan(["HintWindow.m": Self.objcHint])
        #expect(found.map { "\($0.line) \($0.rule) \($0.note)" } == ["3 timer-target-retain true"])
        // Stopped nowhere: a warning.
        let never = Self.objcHint.replacingOccurrences(of: "[fadeTimer invalidate];", with: "")
        #expect(try warnings(["HintWindow.m": never]) == ["HintWindow.m:3 timer-target-retain"])
    }

    // MARK: An object only the app delegate makes

    static let objcClock = """
        @implementation MinuteClock
        - (void)viewDidLoad {
            [super viewDidLoad];
            _clockTimer = [NSTimer scheduledTimerWithTimeInterval:60 target:self selector:@selector(tick) userInfo:nil repeats:YES];
        }
        - (void)tick {}
        @end
        """

    @Test func objcObjectMadeOnlyByTheAppDelegateLivesForTheProcess() throws {
        let delegate = """
            @interface ClockAppDelegate : NSObject <NSApplicationDelegate>
            @end
            @implementation ClockAppDelegate
            - (void)applicationDidFinishLaunching:(NSNotification *)notification {
                MinuteClock *clock = [MinuteClock new];
                self.window.contentViewController = clock;
            }
            @end
            """
        #expect(try warnings(["MinuteClock.m": Self.objcClock, "ClockAppDelegate.m": delegate]).isEmpty)
        // Also made by a screen: no evidence that the instance with the timer is the app delegate's.
        let screen = "@implementation ClockList\n- (void)open { [self show:[[MinuteClock alloc] init]]; }\n@end\n"
        #expect(
            try warnings(["MinuteClock.m": Self.objcClock, "ClockAppDelegate.m": delegate, "ClockList.m": screen])
                == ["MinuteClock.m:4 timer-target-retain"])
    }

    @Test func swiftObjectMadeOnlyByTheAppDelegateLivesForTheProcess() throws {
        let model = """
            import Foundation
            final class SyncPoller: NSObject {
                var pollTimer: Timer?
                func begin() {
                    pollTimer = Timer.scheduledTimer(timeInterval: 30, target: self, selector: #selector(poll), userInfo: nil, repeats: true)
                }
                @objc func poll() {}
            }
            """
        let delegate = """
            import UIKit
            @main
            class SyncAppDelegate: UIResponder, UIApplicationDelegate {
                let poller = SyncPoller()
                func applicationDidBecomeActive(_ application: UIApplication) { poller.begin() }
            }
            """
        #expect(try warnings(["SyncPoller.swift": model, "SyncAppDelegate.swift": delegate]).isEmpty)
        let screen = "import UIKit\nclass SyncScreen: UIViewController {\n    let poller = SyncPoller()\n}\n"
        #expect(
            try warnings(["SyncPoller.swift": model, "SyncAppDelegate.swift": delegate, "SyncScreen.swift": screen])
                == ["SyncPoller.swift:5 timer-target-retain"])
    }

    // MARK: A closure handed to a project type that runs it from a timer

    static let swiftPoller = """
        import Foundation
        class BalancePoller {
            var pollSource: DispatchSourceTimer
            var pollBody: () -> Void
            init(every: Int, _ pollBody: @escaping () -> Void) {
                self.pollBody = pollBody
                pollSource = DispatchSource.makeTimerSource(queue: .main)
                pollSource.schedule(deadline: .now(), repeating: .seconds(every))
                pollSource.setEventHandler { self.pollBody() }
                pollSource.resume()
            }
            func haltPolling() {
                pollSource.cancel()
            }
        }
        """

    @Test func swiftClosureCapturingSelfHandedToAPollerRetainsSelf() throws {
        let wallet = """
            import Foundation
            class WalletModel: NSObject {
                var poller: BalancePoller?
                var balance = 0
                func startPolling() {
                    poller = BalancePoller(every: 8) {
                        self.balance += 1
                    }
                }
            }
            """
        #expect(
            try warnings(["BalancePoller.swift": Self.swiftPoller, "WalletModel.swift": wallet])
                == ["BalancePoller.swift:9 block-timer-strong-self", "WalletModel.swift:7 block-timer-strong-self"])
        // A method of the poller that cancels its source, called on the property: a note.
        let stopped = wallet.replacingOccurrences(
            of: "    func startPolling() {",
            with: "    @IBAction func close() { poller?.haltPolling() }\n    func startPolling() {")
        #expect(try warnings(["BalancePoller.swift": Self.swiftPoller, "WalletModel.swift": stopped]).isEmpty)
        // A weak capture, or a type that does not run the closure from a timer: nothing in the model (the
        // poller's own cycle, which nothing stops, is a warning of its own).
        let weak = wallet.replacingOccurrences(
            of: "{\n            self.balance", with: "{ [weak self] in\n            self?.balance")
        #expect(
            try warnings(["BalancePoller.swift": Self.swiftPoller, "WalletModel.swift": weak])
                == ["BalancePoller.swift:9 block-timer-strong-self"])
        let plain = Self.swiftPoller.replacingOccurrences(of: "self.pollBody()", with: "print(every)")
        #expect(try warnings(["BalancePoller.swift": plain, "WalletModel.swift": wallet]).isEmpty)
    }
}
