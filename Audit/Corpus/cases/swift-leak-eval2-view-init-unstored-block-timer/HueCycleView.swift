// swift-format-ignore-file
import UIKit

class HueCycleView : UIView {

    let hues: [UIColor] = [.red, .orange, .yellow, .green, .blue, .purple]
    var hueIndex = 0

    override init(frame: CGRect) {
        super.init(frame: frame)

        let hueTimer = Timer.scheduledTimer(withTimeInterval: 2.0, repeats: true) { (timer) in
            UIView.animate(withDuration: 2.0, animations: {
                self.layer.backgroundColor = self.hues[self.hueIndex % 6].cgColor
                self.hueIndex += 1
            })
        }
        hueTimer.fire()
    }

    required init?(coder aDecoder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }
}
