#import <UIKit/UIKit.h>
@class ArticlePump;

@interface ReaderAppDelegate : NSObject <UIApplicationDelegate> {
    ArticlePump *articlePump;
}
@end
