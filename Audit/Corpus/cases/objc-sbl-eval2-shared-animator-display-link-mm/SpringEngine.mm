#import "SpringEngine.h"
#import <QuartzCore/QuartzCore.h>

@implementation SpringEngine
{
#if TARGET_OS_IPHONE
  CADisplayLink *_frameLink;
#endif
  dispatch_source_t _fallbackTimer;
  std::vector<int> _pending;
}

+ (id)sharedEngine
{
  static SpringEngine* _engine = nil;
  static dispatch_once_t onceToken;
  dispatch_once(&onceToken, ^{
    _engine = [[SpringEngine alloc] init];
  });
  return _engine;
}

- (instancetype)init
{
  self = [super init];
  if (nil == self) return nil;

#if TARGET_OS_IPHONE
  _frameLink = [CADisplayLink displayLinkWithTarget:self selector:@selector(renderSprings)];
  _frameLink.paused = YES;
  [_frameLink addToRunLoop:[NSRunLoop mainRunLoop] forMode:NSRunLoopCommonModes];
#else
  _fallbackTimer = dispatch_source_create(DISPATCH_SOURCE_TYPE_TIMER, 0, 0, dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_HIGH, 0));
  dispatch_source_set_timer(_fallbackTimer, DISPATCH_TIME_NOW, NSEC_PER_SEC / 60, 0);
  __weak SpringEngine *weakSelf = self;
  dispatch_source_set_event_handler(_fallbackTimer, ^{
    __strong SpringEngine *strongSelf = weakSelf;
    if (nil != strongSelf) {
      [strongSelf renderSprings];
    }
  });
#endif

  return self;
}

- (void)dealloc
{
#if TARGET_OS_IPHONE
  [_frameLink invalidate];
#endif
}

- (void)renderSprings
{
#if TARGET_OS_IPHONE
  _frameLink.paused = _pending.empty();
#endif
}

@end
