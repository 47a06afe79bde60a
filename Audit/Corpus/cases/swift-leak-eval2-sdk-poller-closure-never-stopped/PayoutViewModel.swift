// swift-format-ignore-file
import Foundation

class PayoutViewModel: NSObject {

    internal var balanceFetcher: RepeatingFetcher?
    var shownBalance = 0

    func refreshBalances() {
        shownBalance += 1
    }

    func startBalanceFetching() {

        self.balanceFetcher = RepeatingFetcher(every: 8) {
            self.refreshBalances()
        }
    }

    func payeesLoaded(_ payees: [String]) {
        if !payees.isEmpty {
            self.startBalanceFetching()
        }
    }
}
