// A @MainActor method as target–action on another context would run off the main thread; target–action
// exists on the main actor only (no `on:`).
import Dispatch
import TimerKit

@MainActor
final class Carousel {
    var page = 0
    func advance(_ tick: Tick) { page += 1 }

    func start(on queue: DispatchQueue) {
        // expected-error: extra argument 'on' in call
        Ticker.schedule(.every(.seconds(3)), on: .dispatch(queue), target: self, action: Carousel.advance)
    }
}
