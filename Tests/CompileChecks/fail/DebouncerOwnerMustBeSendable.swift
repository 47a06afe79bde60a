// A debouncer on a queue hands its owner to the queue: the owner must be Sendable.
import Dispatch
import TimerKit

final class SearchModel {
    var query = ""
}

func makeDebouncer(for model: SearchModel, on queue: DispatchQueue) -> Debouncer<String> {
    // expected-error: type 'SearchModel' does not conform to the 'Sendable' protocol
    Debouncer(interval: .milliseconds(300), on: .dispatch(queue), owner: model) { model, text in
        model.query = text
    }
}
