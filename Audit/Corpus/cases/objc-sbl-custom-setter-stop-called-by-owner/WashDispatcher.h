#import <Foundation/Foundation.h>

@interface WashDispatcher : NSObject
- (void)run;
- (void)stop;
@end
