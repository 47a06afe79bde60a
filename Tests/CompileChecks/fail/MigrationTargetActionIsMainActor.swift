// The target–action look-alike is the main actor's too: its action runs there.
import Foundation
import TimerKit
import TimerKitMigration

final class Worker: Sendable {
    func work() {}
}

func start(_ worker: Worker) {
    // expected-error: call to main actor-isolated static method 'scheduledTimer(timeInterval:target:action:repeats:fileID:line:)' in a synchronous nonisolated context
    Timer.scheduledTimer(timeInterval: 1, target: worker, action: Worker.work, repeats: true)
}
