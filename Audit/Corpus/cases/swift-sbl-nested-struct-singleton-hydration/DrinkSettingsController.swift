// swift-format-ignore-file
import UIKit

final class DrinkSettingsController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        HydrationReminder.sharedInstance.startSipReminders()
    }
}
