#import <Foundation/Foundation.h>

@interface PageFlipTimer : NSObject
- (instancetype)initWithInterval:(NSTimeInterval)interval client:(id)client action:(SEL)action;
- (void)stop;
@end
