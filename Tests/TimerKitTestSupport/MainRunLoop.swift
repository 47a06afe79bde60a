import Foundation

/// Runs the main run loop in slices of 5 ms until `condition` holds or `timeout` of real time has passed
/// (a generous bound: XCTest cases that need the main thread's run loop check the condition right after).
/// On the main actor: it turns the main thread's run loop.
@MainActor
public func spinMainRunLoop(until condition: () -> Bool, timeout: TimeInterval = 5) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition(), Date() < deadline {
        RunLoop.main.run(until: Date().addingTimeInterval(0.005))
    }
}
