// Frames without a source named are the main actor's.
import TimerKit

final class Sprite: Sendable {}

func animate(_ sprite: Sprite) {
    // expected-error: call to main actor-isolated static method 'subscribe(_:refreshRate:owner:fileID:line:_:)' in a synchronous nonisolated context
    FrameSource.subscribe(owner: sprite) { _, _ in }
}
