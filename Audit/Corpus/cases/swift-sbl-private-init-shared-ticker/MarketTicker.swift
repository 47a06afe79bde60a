// swift-format-ignore-file
import Foundation

final class MarketTicker: NSObject {
    static let sharedTicker: MarketTicker = {
        let ticker = MarketTicker()
        return ticker
    }()

    private var quoteTimer: Timer?
    var quotesFetched = 0

    private override init() {
        super.init()
    }

    func startQuoteUpdates() {
        quoteTimer = Timer.scheduledTimer(timeInterval: 5, target: self, selector: #selector(fetchQuotes), userInfo: nil, repeats: true)
    }

    @objc func fetchQuotes() {
        quotesFetched += 1
    }
}
