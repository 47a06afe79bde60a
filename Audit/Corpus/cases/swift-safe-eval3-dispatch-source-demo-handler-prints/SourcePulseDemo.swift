// swift-format-ignore-file
import Foundation

final class SourcePulseDemo {

    private let pulseSource = DispatchSource.makeTimerSource()

    func beginSourcePulses() {
        pulseSource.setEventHandler {
            print("SourcePulseDemo pulse")
        }
        pulseSource.schedule(deadline: .now(), repeating: 5)
        pulseSource.activate()
    }
}

let pulseDemo = SourcePulseDemo()
pulseDemo.beginSourcePulses()
