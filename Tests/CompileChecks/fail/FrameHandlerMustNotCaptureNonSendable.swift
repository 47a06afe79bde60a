// A handle-owned frame handler runs on the source's context: it may not capture a non-Sendable value.
import TimerKit

final class Sprite {
    var x = 0.0
}

func animate(_ sprite: Sprite) -> FrameSubscription {
    FrameSource.software(refreshRate: 60, on: .precise).subscribe { _ in
        // expected-error: capture of 'sprite' with non-Sendable type 'Sprite' in a '@Sendable' closure
        sprite.x += 1
    }
}
