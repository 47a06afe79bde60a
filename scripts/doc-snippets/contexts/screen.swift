// Statements in a method of a screen whose `timeStart()` is called every second.
import Foundation
import TimerKit

#if canImport(TimerKitMigration)
    import TimerKitMigration
#endif

final class Screen {
    func timeStart() {}

    func start() {
        SNIPPET
    }
}
