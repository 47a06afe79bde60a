#import <UIKit/UIKit.h>

@interface AuctionCell : UITableViewCell
@property (nonatomic, strong) NSDate *closesAt;
- (void)cellDidAppear;
- (void)cellDidDisappear;
@end
