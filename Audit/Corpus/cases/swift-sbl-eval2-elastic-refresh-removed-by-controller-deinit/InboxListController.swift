// swift-format-ignore-file
import UIKit

class InboxListController: UIViewController {
    let inboxTable = UITableView()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(inboxTable)
        inboxTable.addStretchRefresh { [weak self] in
            self?.inboxTable.reloadData()
        }
    }

    deinit {
        inboxTable.removeStretchRefresh()
    }
}
