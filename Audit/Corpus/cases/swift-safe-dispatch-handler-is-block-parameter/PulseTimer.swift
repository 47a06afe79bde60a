// swift-format-ignore-file
import Foundation

final class PulseTimer {
    let action: () -> Void
    let source: DispatchSourceTimer

    private init(action: @escaping () -> Void, source: DispatchSourceTimer) {
        self.action = action
        self.source = source
    }

    static func every(_ seconds: Double, action: @escaping () -> Void) -> PulseTimer {
        let source = DispatchSource.makeTimerSource(flags: [], queue: .main)
        let pulse = PulseTimer(action: action, source: source)
        pulse.source.schedule(deadline: .now(), repeating: seconds, leeway: .milliseconds(1))
        pulse.source.setEventHandler(handler: action)
        pulse.source.resume()
        return pulse
    }

    deinit {
        source.cancel()
    }
}
