#import "WashDispatcher.h"

@interface CarWashStation : NSObject
@property (nonatomic, retain) WashDispatcher *dispatcher;
@end

@implementation CarWashStation

- (void)open {
    self.dispatcher = [[[WashDispatcher alloc] init] autorelease];
    [self.dispatcher run];
}

- (void)close {
    [self.dispatcher stop];
    self.dispatcher = nil;
}

- (void)dealloc {
    [self close];
    [super dealloc];
}

@end
