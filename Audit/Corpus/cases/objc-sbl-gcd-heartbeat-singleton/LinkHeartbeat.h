#import <Foundation/Foundation.h>

@interface LinkHeartbeat : NSObject
@property (nonatomic, strong) dispatch_source_t beatSource;
@property (nonatomic, strong) dispatch_queue_t beatQueue;
+ (instancetype)shared;
- (void)startBeating;
- (void)stopBeating;
@end
