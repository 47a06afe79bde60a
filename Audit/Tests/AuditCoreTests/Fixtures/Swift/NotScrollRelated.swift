// swift-format-ignore-file
// A type whose name only contains "Table" inside a word (Tablet) is not scroll-related: no note.
// expect-none
import Foundation

final class TabletSyncService {
    private var timer: Timer?

    func start() {
        timer = Timer.scheduledTimer(withTimeInterval: 60, repeats: true) { [weak self] _ in
            self?.sync()
        }
    }

    func sync() {}
}
