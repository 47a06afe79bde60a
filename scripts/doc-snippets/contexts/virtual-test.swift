// The body of an async main-actor test with a VirtualTime named `time` and a Sendable `values` collector.
import Foundation
import Synchronization
import Testing
import TimerKit
import TimerKitTesting

final class Values: Sendable {
    private let storage = Mutex<[Int]>([])
    func append(_ value: Int) { storage.withLock { $0.append(value) } }
}

@Test @MainActor func example() async {
    let time = VirtualTime()
    let values = Values()
    SNIPPET
}
