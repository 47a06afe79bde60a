// swift-format-ignore-file
import Foundation

final class RebuildBackoff {
    private let work: () -> Void
    var shortest: TimeInterval = 0
    var longest: TimeInterval = 60
    lazy var delay: TimeInterval = shortest

    private var pending: Timer? {
        didSet { oldValue?.invalidate() }
    }

    init(work: @escaping () -> Void) {
        self.work = work
    }

    deinit {
        pending = nil
    }

    func bump() {
        delay = min(longest, max(1, delay) * 2)
        pending = Timer.scheduledTimer(withTimeInterval: delay, repeats: false) { [weak self] _ in
            self?.work()
        }
    }

    func reset() {
        pending = nil
        delay = shortest
    }
}
