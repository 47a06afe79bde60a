// A model of the part of Apple's UIKit that TimerKit's Apple-only tests use, for the Linux type-check of
// that code (scripts/check-apple-paths.sh). Written from Apple's documentation, not copied from the SDK;
// it only has to type-check, never to run.

@_exported import Foundation
@_exported import QuartzCore

/// https://developer.apple.com/documentation/uikit/uiscreen
open class UIScreen: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiscreen/main (deprecated in iOS 26, still present)
    @MainActor open class var main: UIScreen { UIScreen() }

    /// https://developer.apple.com/documentation/uikit/uiscreen/maximumframespersecond
    @MainActor open var maximumFramesPerSecond: Int { 60 }
}
