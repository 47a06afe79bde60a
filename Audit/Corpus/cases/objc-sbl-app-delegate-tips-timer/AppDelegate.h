#import <UIKit/UIKit.h>
#import "InboxStore.h"

@interface AppDelegate : UIResponder <UIApplicationDelegate>
@property (strong, nonatomic) UIWindow *window;
@property (strong, nonatomic) InboxStore *inbox;
@end
