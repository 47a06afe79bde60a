// The body of an async test.
import Foundation
import Synchronization
import Testing
import TimerKit
import TimerKitTesting

@Test func example() async {
    SNIPPET
}
