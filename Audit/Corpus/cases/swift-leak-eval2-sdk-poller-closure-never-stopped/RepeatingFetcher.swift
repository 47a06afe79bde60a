// swift-format-ignore-file
import Foundation

open class RepeatingFetcher {

    var fetchSource: DispatchSourceTimer
    var fetchBody: () -> Void
    let fetchQueue = DispatchQueue.global(qos: .background)
    internal var everySeconds = 4

    init(every: Int = 4, _ fetchBody: @escaping () -> Void) {

        self.everySeconds = every
        self.fetchBody = fetchBody
        self.fetchSource = DispatchSource.makeTimerSource(queue: fetchQueue)
        self.fetchSource.schedule(deadline: .now(), repeating: .seconds(self.everySeconds), leeway: .seconds(0))
        self.fetchSource.setEventHandler { self.fetchBody() }
        fetchSource.resume()
    }

    func haltFetching() {

        fetchSource.cancel()
    }
}
