import CoreFoundation
import Foundation

/// Adds `mode` to the common modes of the calling thread's run loop, as UIKit does with its tracking mode:
/// from then on, everything added to that loop for `.common` (before or after) is served in `mode` too. A
/// loop's common modes are never removed, so use a mode name of the test's own.
public func addToCurrentRunLoopsCommonModes(_ mode: RunLoop.Mode) {
    #if canImport(Darwin)
        CFRunLoopAddCommonMode(CFRunLoopGetCurrent(), CFRunLoopMode(rawValue: mode.rawValue as CFString))
    #else
        // swift-corelibs-foundation spells a run-loop mode as a plain CFString.
        guard let name = CFStringCreateWithCString(nil, mode.rawValue, CFStringBuiltInEncodings.UTF8.rawValue)
        else { preconditionFailure("TimerKitTestSupport: cannot make a CFString of \(mode.rawValue)") }
        CFRunLoopAddCommonMode(CFRunLoopGetCurrent(), name)
    #endif
}

/// Runs the calling thread's run loop in `mode`, in slices of 5 ms, until `condition` holds or `timeout` of
/// real time has passed (a generous bound: the caller checks the condition, or what it counts, afterwards).
public func spinCurrentRunLoop(in mode: RunLoop.Mode, until condition: () -> Bool, timeout: TimeInterval = 5) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition(), Date() < deadline {
        _ = RunLoop.current.run(mode: mode, before: Date().addingTimeInterval(0.005))
    }
}
