#import "QuoteTickerController.h"

@interface QuoteTickerController ()
@property (nonatomic, strong) NSTimer *quoteTimer;
@end

@implementation QuoteTickerController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.quoteTimer = [NSTimer scheduledTimerWithTimeInterval:3 target:self selector:@selector(refreshQuotes:) userInfo:nil repeats:YES];
}

- (void)refreshQuotes:(NSTimer *)timer {
    NSLog(@"refreshing quotes");
}

- (void)dealloc {
    [self.quoteTimer invalidate];
}

@end
