// swift-format-ignore-file
import Foundation

private enum SamplingState {
    case paused
    case running
}

internal class SamplingRepeater {
    private var onSample: (() -> Void)
    private var state: SamplingState = .paused
    private var sampleSource: DispatchSourceTimer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "sampling.repeater", qos: .default))

    internal init(seconds: Int, onSample: @escaping (() -> Void)) {
        self.onSample = onSample
        self.configure(seconds)
    }

    deinit {
        self.sampleSource.setEventHandler {}
        self.sampleSource.cancel()
        if self.state == .paused {
            self.sampleSource.resume()
            self.state = .running
        }
    }

    private func configure(_ interval: Int) {
        self.sampleSource.schedule(deadline: DispatchTime.now() + Double(interval), repeating: .seconds(interval), leeway: .milliseconds(200))
        self.sampleSource.setEventHandler { [weak self] in
            self?.onSample()
        }
    }

    internal func start() {
        guard self.state == .paused else { return }
        self.sampleSource.resume()
        self.state = .running
    }

    internal func pause() {
        guard self.state == .running else { return }
        self.sampleSource.suspend()
        self.state = .paused
    }
}
