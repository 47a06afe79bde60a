#import <Foundation/Foundation.h>

@interface PageTimerProxy : NSProxy
@property (nonatomic, weak) id target;
+ (PageTimerProxy *)proxyWithTarget:(id)target;
@end
