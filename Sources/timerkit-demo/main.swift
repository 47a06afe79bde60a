import Foundation
import TimerKit

final class Screen {
    var count = 0
    func tick(_ tick: Tick) { count += 1; print("tick", tick) }
    func refresh() { print("refresh") }
    deinit { print("Screen deinit") }
}

@MainActor
final class MainScreen {
    func tick(_ tick: Tick) { print("main tick", tick) }
}

let q = DispatchQueue(label: "demo")
do {
    let s = Screen()
    Ticker.schedule(.every(.milliseconds(50), count: 3), on: .dispatch(q), target: s, action: Screen.tick)
    Ticker.schedule(.every(.milliseconds(50), count: 3), on: .dispatch(q), target: s, action: Screen.refresh)
    Ticker.schedule(.every(.milliseconds(50)), on: .dispatch(q), owner: s) { owner, tick in owner.tick(tick) }
    Thread.sleep(forTimeInterval: 0.3)
}
Thread.sleep(forTimeInterval: 0.2)
print(TickerDiagnostics.report())
let t = Ticker.schedule(.every(.milliseconds(20)), on: .main) { tick in print("main", tick) }
RunLoop.main.run(until: Date().addingTimeInterval(0.1))
t.cancel()
print(TickerDiagnostics.report())
