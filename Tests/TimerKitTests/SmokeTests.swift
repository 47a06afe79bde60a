import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

@Suite struct SmokeTests {
    init() { LogCapture.install() }

    @Test func virtualRepeatingTickerFiresOnSchedule() {
        let time = VirtualTime()
        let screen = Screen()
        time.run {
            Ticker.schedule(.every(.seconds(1)), on: .dispatch(.global()), owner: screen) { owner, tick in
                owner.tick(tick)
            }
        }
        time.advance(by: .milliseconds(3500))
        #expect(screen.ticks == 3)
    }

    @Test func runLoopThreadTickerFires() {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let screen = Screen()
        Ticker.schedule(.every(.milliseconds(10)), on: thread.context, owner: screen) { owner, tick in owner.tick(tick)
        }
        #expect(eventually { screen.ticks >= 3 })
    }
}
