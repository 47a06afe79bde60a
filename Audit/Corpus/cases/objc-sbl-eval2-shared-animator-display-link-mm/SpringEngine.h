#import <Foundation/Foundation.h>

@interface SpringEngine : NSObject
+ (id)sharedEngine;
@end
