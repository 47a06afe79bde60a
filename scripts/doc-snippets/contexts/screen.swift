// Statements in a method of a main-actor screen whose `timeStart()` is called every second.
import Foundation
import TimerKit

#if canImport(TimerKitMigration)
    import TimerKitMigration
#endif

@MainActor
final class Screen {
    func timeStart() {}

    func start() {
        SNIPPET
    }
}
