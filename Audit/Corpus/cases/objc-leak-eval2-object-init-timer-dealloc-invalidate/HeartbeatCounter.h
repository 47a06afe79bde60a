#import <Foundation/Foundation.h>

@interface HeartbeatCounter : NSObject
@end
