// swift-format-ignore-file
import UIKit

class HueDemoController: UIViewController {

    @IBAction func addHueView(_ sender: Any) {
        let hueView = HueCycleView(frame: self.view.frame)
        self.view.addSubview(hueView)
    }
}
