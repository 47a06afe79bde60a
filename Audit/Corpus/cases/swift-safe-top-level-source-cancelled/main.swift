// swift-format-ignore-file
import Foundation

let probe = DispatchSource.makeTimerSource()
probe.setEventHandler {
    print("probe at \(Date())")
}
probe.setCancelHandler {
    print("probe stopped")
}
probe.schedule(deadline: .now() + .seconds(1), repeating: 2.0, leeway: .milliseconds(10))
probe.resume()
DispatchQueue.main.asyncAfter(deadline: .now() + .seconds(10)) {
    probe.cancel()
}
dispatchMain()
