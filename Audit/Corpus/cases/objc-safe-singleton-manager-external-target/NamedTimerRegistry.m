#import "NamedTimerRegistry.h"

@interface NamedTimerRegistry ()
@property (nonatomic, strong) NSMutableDictionary *namedTimers;
@end

static NamedTimerRegistry *sRegistry = nil;

@implementation NamedTimerRegistry

+ (NamedTimerRegistry *)sharedRegistry {
    static dispatch_once_t onceToken;
    dispatch_once(&onceToken, ^{
        sRegistry = [[NamedTimerRegistry alloc] init];
        sRegistry.namedTimers = [NSMutableDictionary dictionary];
    });
    return sRegistry;
}

- (NSTimer *)timerNamed:(NSString *)name interval:(NSTimeInterval)interval target:(id)target selector:(SEL)selector {
    NSTimer *timer = [self.namedTimers objectForKey:name];
    if (timer == nil) {
        timer = [NSTimer scheduledTimerWithTimeInterval:interval target:target selector:selector userInfo:nil repeats:YES];
        [self.namedTimers setObject:timer forKey:name];
    }
    return timer;
}

@end
