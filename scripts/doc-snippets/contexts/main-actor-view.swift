// Statements in a method of a main-actor view that animates an angle.
import TimerKit

@MainActor
final class SpinnerView {
    var angle = 0.0

    func appear() {
        SNIPPET
    }
}
