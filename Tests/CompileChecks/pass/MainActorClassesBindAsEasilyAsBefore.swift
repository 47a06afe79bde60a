// Views, view controllers and view models are @MainActor: every form without `on:` binds them with
// no annotation, and their handlers use main-actor state directly.
import Foundation
import TimerKit

@MainActor
final class CarouselController {
    var page = 0
    var autoScroll: Ticker?
    var resend: Ticker?
    var countdownLabel = ""
    var results: [String] = []
    lazy var search = Debouncer<String>(interval: .milliseconds(300), owner: self) { controller, query in
        controller.results = [query]
    }
    lazy var scroll = Throttler<Double>(interval: .milliseconds(100), modes: [.default], owner: self) { _, _ in }

    func viewDidAppear() {
        // Waits while the user drags, like the scroll view's own timers.
        autoScroll = Ticker.schedule(.every(.seconds(3)), modes: [.default], owner: self) { controller, _ in
            controller.page += 1
        }
        resend = Ticker.schedule(.countdown(from: 60), owner: self) { controller, tick in
            controller.countdownLabel = "Resend in \(tick.remaining ?? 0) s"
        }
        Ticker.schedule(.every(.seconds(1)), target: self, action: CarouselController.tick)
        FrameSource.subscribe(FrameRateRange(preferred: 30), owner: self) { controller, frame in
            controller.page += frame.droppedFrames
        }
        search.send("tim")
        scroll.send(12)
    }

    func tick(_ tick: Tick) {
        page += 1
    }
}

@MainActor
func handleOwned() -> Ticker {
    Ticker.schedule(.after(.seconds(1))) { tick in
        print(tick.index)
    }
}
