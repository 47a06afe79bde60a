#import "VisitRecordPanel.h"
#import "CreepingLabel.h"

@interface VisitRecordPanel ()
{
    IBOutlet CreepingLabel *_visitShopName;
    IBOutlet CreepingLabel *_visitShopBrand;
}
@end

@implementation VisitRecordPanel

- (void)setVisitedShop:(ShopInfo *)visitedShop
{
    _visitedShop = visitedShop;
    _visitShopName.text = visitedShop.shopName;
    _visitShopBrand.text = visitedShop.brandName;
    [_visitShopBrand beginCreeping];
    [_visitShopName beginCreeping];
}

- (void)shopPickerDidPick:(ShopInfo *)shop
{
    _visitedShop = shop;
    _visitShopName.text = shop.shopName;
    _visitShopBrand.text = shop.brandName;
    [_visitShopBrand beginCreeping];
    [_visitShopName beginCreeping];
    [self reloadVisitRows];
}

- (void)reloadVisitRows
{
}

@end
