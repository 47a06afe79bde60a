// A frame source delivers on its context: a subscriber's owner named with a source must be Sendable.
import Dispatch
import TimerKit

final class Sprite {
    var x = 0.0
}

func animate(_ sprite: Sprite, on queue: DispatchQueue) {
    let source = FrameSource.software(refreshRate: 60, on: .dispatch(queue))
    // expected-error: type 'Sprite' does not conform to the 'Sendable' protocol
    source.subscribe(owner: sprite) { sprite, _ in
        sprite.x += 1
    }
}
