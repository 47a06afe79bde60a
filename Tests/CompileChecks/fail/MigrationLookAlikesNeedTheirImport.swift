// Without `import TimerKitMigration`, `Timer.scheduledTimer` means Foundation's alone.
import Foundation
import TimerKit

@MainActor
final class Screen {
    func timeStart() {}

    func viewDidAppear() {
        // expected-error: extra arguments at positions #2, #3 in call
        _ = Timer.scheduledTimer(timeInterval: 1, target: self, action: Screen.timeStart, repeats: true)
    }
}
