#import <Foundation/Foundation.h>

@interface RelayTimer : NSObject
@property (nonatomic, strong) NSTimer *timer;
+ (RelayTimer *)relayEvery:(NSTimeInterval)interval target:(id)target selector:(SEL)selector;
- (void)invalidate;
@end
