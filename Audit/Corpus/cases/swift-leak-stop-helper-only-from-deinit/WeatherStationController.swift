// swift-format-ignore-file
import UIKit

final class WeatherStationController: UIViewController {
    let barometer = BarometerReader()

    override func viewDidLoad() {
        super.viewDidLoad()
        barometer.beginPressureSampling()
    }
}
