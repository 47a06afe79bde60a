// With `import TimerKitMigration`, the seeds' Foundation calls migrate by one argument.
import Foundation
import TimerKit
import TimerKitMigration

@MainActor
final class ViewController {
    var timer: Ticker?
    var seconds = 0

    func viewDidLoad() {
        timer = Timer.scheduledTimer(timeInterval: 1, target: self, action: ViewController.timeStart, repeats: true)
        Timer.scheduledTimer(withTimeInterval: 1, repeats: true, owner: self) { controller, ticker in
            controller.seconds += 1
            if controller.seconds == 10 { ticker.invalidate() }
        }
    }

    func timeStart() {
        seconds += 1
    }

    func stop() {
        if timer?.isValid == true { timer?.invalidate() }
    }
}
