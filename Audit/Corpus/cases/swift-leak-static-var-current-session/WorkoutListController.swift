// swift-format-ignore-file
import UIKit

final class WorkoutListController: UITableViewController {
    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        let session = WorkoutSession()
        WorkoutSession.current = session
    }
}
