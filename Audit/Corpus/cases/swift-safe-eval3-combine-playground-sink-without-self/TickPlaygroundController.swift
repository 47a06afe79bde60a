// swift-format-ignore-file
import UIKit
import Combine

class TickPlaygroundController: UIViewController {

    var playgroundTicks: Timer.TimerPublisher!

    override func viewDidLoad() {
        super.viewDidLoad()

        playgroundTicks = Timer.publish(every: 1, on: .main, in: .default)
        _ = playgroundTicks.sink { moment in
            print(moment)
        }

        let playgroundConnection = playgroundTicks.connect()
        DispatchQueue.main.asyncAfter(deadline: .now() + 4) {
            self.playgroundTicks = nil
        }

        DispatchQueue.main.asyncAfter(deadline: .now() + 6) {
            playgroundConnection.cancel()
        }
    }
}
