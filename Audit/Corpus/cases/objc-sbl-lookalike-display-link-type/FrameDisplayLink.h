#import <Foundation/Foundation.h>

@interface FrameDisplayLink : NSObject
@property (nonatomic, weak, readonly) id target;
@property (nonatomic, assign, readonly) SEL selector;
+ (instancetype)displayLinkWithTarget:(id)target selector:(SEL)selector;
- (void)addToRunLoop:(NSRunLoop *)runLoop forMode:(NSRunLoopMode)mode;
- (void)start;
- (void)stop;
@end
