// swift-format-ignore-file
import UIKit

class ScoreRevealViewController: UIViewController {

    let scoreLabel: UILabel = {
        let label = UILabel()
        label.textAlignment = .center
        label.font = UIFont.monospacedDigitSystemFont(ofSize: 32, weight: .bold)
        return label
    }()

    var shown = 0
    let finalScore = 1250

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(scoreLabel)
        scoreLabel.frame = view.bounds
        let counter = CADisplayLink(target: self, selector: #selector(countUp))
        counter.add(to: .main, forMode: .default)
    }

    @objc func countUp() {
        if shown <= finalScore {
            scoreLabel.text = "\(shown)"
            shown += 5
        }
    }
}
