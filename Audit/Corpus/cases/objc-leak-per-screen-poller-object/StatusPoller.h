#import <Foundation/Foundation.h>

@interface StatusPoller : NSObject
- (instancetype)initWithAction:(void (^)(void))action;
- (void)halt;
@end
