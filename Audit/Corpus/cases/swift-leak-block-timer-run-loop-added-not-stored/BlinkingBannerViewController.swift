// swift-format-ignore-file
import UIKit

final class BlinkingBannerViewController: UIViewController {

    override func viewDidLoad() {
        super.viewDidLoad()
        startBlinking()
    }

    func startBlinking() {
        let blink = Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true) { _ in
            let lit = self.view.backgroundColor == .yellow
            self.view.backgroundColor = lit ? .orange : .yellow
        }
        blink.tolerance = 0.5
        RunLoop.current.add(blink, forMode: .common)
    }
}
