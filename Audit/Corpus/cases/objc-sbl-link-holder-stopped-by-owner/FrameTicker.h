#import <QuartzCore/QuartzCore.h>

@protocol FrameTickerDelegate <NSObject>
- (void)frameTickerDidTick:(CFTimeInterval)duration;
@end

@interface FrameTicker : NSObject
@property (nonatomic, weak) id<FrameTickerDelegate> delegate;
- (void)startTicking;
- (void)stopTicking;
@end
