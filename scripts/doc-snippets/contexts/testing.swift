// The body of an async test.
import Testing
import TimerKit
import TimerKitTesting

@Test func example() async {
    SNIPPET
}
