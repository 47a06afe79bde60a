// swift-format-ignore-file
import UIKit

final class DealsTableViewController: UITableViewController {

    override func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        (cell as? DealCountdownCell)?.startCountdown()
    }

    override func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        (cell as? DealCountdownCell)?.stopCountdown()
    }
}
