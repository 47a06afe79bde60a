#import "FeedSyncClient.h"

@interface FeedSyncClient ()
@property (nonatomic) NSTimer *tokenRenewTimer;
@property (nonatomic) NSTimer *loginRenewTimer;
@property (nonatomic, copy) NSString *syncToken;
@end

@implementation FeedSyncClient

+ (FeedSyncClient *)sharedManager
{
    static FeedSyncClient *_syncClient = nil;
    static dispatch_once_t onceToken;
    dispatch_once(&onceToken, ^{
        _syncClient = [[FeedSyncClient alloc] init];
    });
    return _syncClient;
}

- (void)requestLogin
{
    NSURLSessionDataTask *task = [[NSURLSession sharedSession] dataTaskWithURL:self.loginURL completionHandler:^(NSData *data, NSURLResponse *response, NSError *error) {
        if (error) {
            return;
        }
        if (self.loginRenewTimer == nil || !self.loginRenewTimer.valid) {
            self.loginRenewTimer = [NSTimer scheduledTimerWithTimeInterval:6 * 24 * 3600
                                                                    target:self
                                                                  selector:@selector(forgetLogin)
                                                                  userInfo:nil
                                                                   repeats:YES];
        }
        [self requestToken];
    }];
    [task resume];
}

- (void)requestToken
{
    NSURLSessionDataTask *task = [[NSURLSession sharedSession] dataTaskWithURL:self.tokenURL completionHandler:^(NSData *data, NSURLResponse *response, NSError *error) {
        self.syncToken = [[NSString alloc] initWithData:data encoding:NSUTF8StringEncoding];
        if (self.tokenRenewTimer == nil || !self.tokenRenewTimer.valid) {
            self.tokenRenewTimer = [NSTimer scheduledTimerWithTimeInterval:25 * 60
                                                                    target:self
                                                                  selector:@selector(requestToken)
                                                                  userInfo:nil
                                                                   repeats:YES];
        }
    }];
    [task resume];
}

- (void)forgetLogin
{
    self.syncToken = nil;
}

@end
