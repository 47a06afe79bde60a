#import <Foundation/Foundation.h>

@interface ArticlePump : NSObject {
    NSTimer *pumpTimer;
}
- (void)beginPumping;
- (void)endPumping;
@end
