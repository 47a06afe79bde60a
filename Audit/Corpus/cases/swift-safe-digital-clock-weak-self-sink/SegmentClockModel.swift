// swift-format-ignore-file
import Combine
import Foundation

final class SegmentClockModel: ObservableObject {
    @Published var segmentTime = Date.now
    let segmentTicks = Timer.publish(every: 1, on: .main, in: .default).autoconnect()
    private var segmentBag = Set<AnyCancellable>()

    init() {
        segmentTicks
            .sink { [weak self] _ in
                guard let self else { return }
                self.segmentTime = Date.now
            }
            .store(in: &segmentBag)
    }
}
