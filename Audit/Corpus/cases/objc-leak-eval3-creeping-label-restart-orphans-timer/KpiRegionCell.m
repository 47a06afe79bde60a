#import "KpiRegionCell.h"
#import "CreepingLabel.h"

@interface KpiRegionCell ()
{
    IBOutlet CreepingLabel *_regionTitle;
}
@end

@implementation KpiRegionCell

- (void)setRegionHighlighted:(BOOL)regionHighlighted
{
    if (regionHighlighted) {
        self.contentView.backgroundColor = [UIColor darkGrayColor];
        [_regionTitle beginCreeping];
    } else {
        self.contentView.backgroundColor = [UIColor clearColor];
        [_regionTitle endCreeping];
    }
}

@end
