// swift-format-ignore-file
import UIKit

final class ParcelTrackingController: UIViewController {
    let parcelPoller = ParcelPoller()

    override func viewDidLoad() {
        super.viewDidLoad()
        parcelPoller.watchParcel()
        navigationItem.leftBarButtonItem = UIBarButtonItem(systemItem: .close, primaryAction: UIAction { [weak self] _ in
            self?.parcelPoller.cancel()
            self?.dismiss(animated: true)
        })
    }
}
