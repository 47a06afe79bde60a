#import <Foundation/Foundation.h>

@interface SoftProxy : NSProxy
@property (nonatomic, weak, readonly) id target;
+ (instancetype)proxyFor:(id)target;
@end
