// swift-format-ignore-file
import Foundation

class SwapQuoteViewModel: NSObject {

    internal var quoteFetcher: RepeatingFetcher?
    var lastQuote = ""

    func requestSwapQuote() {

        self.quoteFetcher = RepeatingFetcher(every: 8) {
            self.lastQuote = "quote"
        }
    }

    func closeSwapModal() {

        self.haltQuoteFetching()
    }

    func haltQuoteFetching() {

        self.quoteFetcher?.haltFetching()
        self.quoteFetcher = nil
    }
}
