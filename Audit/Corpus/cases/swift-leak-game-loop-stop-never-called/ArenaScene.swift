// swift-format-ignore-file
import UIKit

final class ArenaScene {
    var loop: ArenaLoop?
    var ticks = 0

    func enter() {
        loop = ArenaLoop { [weak self] in
            self?.ticks += 1
        }
    }
}
