// The Foundation look-alikes are the main actor's: their blocks touch their owners there.
import Foundation
import TimerKit
import TimerKitMigration

final class Worker: Sendable {}

func start(_ worker: Worker) {
    // expected-error: call to main actor-isolated static method 'scheduledTimer(withTimeInterval:repeats:owner:fileID:line:block:)' in a synchronous nonisolated context
    Timer.scheduledTimer(withTimeInterval: 1, repeats: true, owner: worker) { _, _ in }
}
