#import <UIKit/UIKit.h>

@interface TransferListController : UITableViewController {
    NSTimer *transferTimer_;
}
@end
