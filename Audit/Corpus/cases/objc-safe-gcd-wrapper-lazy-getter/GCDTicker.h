#import <Foundation/Foundation.h>

@class GCDTicker;
typedef void (^GCDTickerHandler)(GCDTicker *ticker);

@interface GCDTicker : NSObject
+ (instancetype)tickerEvery:(NSTimeInterval)seconds handler:(GCDTickerHandler)handler;
- (void)start;
- (void)pause;
- (void)cancel;
@end
