import Foundation
import Testing
import TimerKitTesting
import XCTest

/// `VirtualTime.install(for:)` is for one test at a time: a second installation while one is in place is
/// a programming error, and it stops the program with a message naming the rule rather than letting two
/// tests share (and tear down) each other's time.
@Suite struct OneInstalledVirtualTimeTests {
    @Test func aSecondInstallationStopsTheProgramWithItsMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let first = InstallForProcessTests(name: "first", testClosure: { _ in })
            let second = InstallForProcessTests(name: "second", testClosure: { _ in })
            VirtualTime.install(for: first)
            VirtualTime.install(for: second)
        }
        let output = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            output.contains(
                "TimerKitTesting: a virtual time is already installed for the process (one per test at a time)"),
            "\(output)")
    }

    /// The control: the same set-up with one installation exits normally.
    @Test func oneInstallationIsFine() async {
        await #expect(processExitsWith: .success) {
            let first = InstallForProcessTests(name: "first", testClosure: { _ in })
            VirtualTime.install(for: first)
        }
    }
}
