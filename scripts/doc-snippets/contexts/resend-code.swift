// Top-level code of a test file with a ResendCodeModel: a main-actor model whose `codeSent()` starts a
// 30-second countdown, after which `canResend` is true.
import Testing
import TimerKit
import TimerKitTesting

SNIPPET

@MainActor
final class ResendCodeModel {
    private(set) var secondsLeft = 0
    var canResend: Bool { secondsLeft == 0 }
    private var countdown: Ticker?

    func codeSent() {
        secondsLeft = 30
        countdown = Ticker.schedule(.countdown(from: 30), owner: self) { model, tick in
            model.secondsLeft = tick.remaining ?? 0
        }
    }
}
