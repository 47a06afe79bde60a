// swift-format-ignore-file
import UIKit

class FiveTickDemoController: UIViewController {

    let fiveTickInterval = TimeInterval(1)

    var fiveTickCount = 0

    override func viewDidLoad() {
        super.viewDidLoad()

        _ = Timer.scheduledTimer(withTimeInterval: self.fiveTickInterval, repeats: true, block: { (timer) in
            print("five-tick demo fired")
            self.fiveTickCount = self.fiveTickCount + 1
            if self.fiveTickCount >= 5 {
                timer.invalidate()
            }
        })
    }
}
