#import "AuctionCell.h"

@interface AuctionListController : UITableViewController
@end

@implementation AuctionListController

- (void)tableView:(UITableView *)tableView willDisplayCell:(UITableViewCell *)cell forRowAtIndexPath:(NSIndexPath *)indexPath {
    [(AuctionCell *)cell cellDidAppear];
}

- (void)tableView:(UITableView *)tableView didEndDisplayingCell:(UITableViewCell *)cell forRowAtIndexPath:(NSIndexPath *)indexPath {
    [(AuctionCell *)cell cellDidDisappear];
}

@end
