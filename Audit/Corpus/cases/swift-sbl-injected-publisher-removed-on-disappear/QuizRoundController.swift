// swift-format-ignore-file
import Combine
import UIKit

final class QuizRoundController: UIViewController {
    private var quizBag = Set<AnyCancellable>()
    private var questionIndex = 0

    func attachPacer(_ ticks: Publishers.Autoconnect<Timer.TimerPublisher>) {
        ticks
            .sink { _ in
                self.questionIndex += 1
            }
            .store(in: &quizBag)
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        quizBag.removeAll()
    }
}
