#import "CreepingLabel.h"

@implementation CreepingLabel

- (void)awakeFromNib
{
    [self beginCreeping];
}

- (void)creepStep
{
    if (_creepPause > 0) {
        _creepPause--;
        if (_creepPause == 0 && _creepOffset != 0) {
            _creepOffset = 0;
            _creepPause = 20;
            [self setNeedsDisplay];
        }
        return;
    }
    CGSize textSize = [self.text sizeWithAttributes:@{NSFontAttributeName: self.font}];
    if (textSize.width > self.frame.size.width) {
        _creepOffset -= 1;
        if (_creepOffset + textSize.width < self.frame.size.width) {
            _creepPause = 20;
        }
        [self setNeedsDisplay];
    }
}

- (void)beginCreeping
{
    CGSize textSize = [self.text sizeWithAttributes:@{NSFontAttributeName: self.font}];
    if (textSize.width > self.frame.size.width)
    {
        _creepOffset = 0;
        _creepPause = 0;
        _creepTimer = [NSTimer scheduledTimerWithTimeInterval:0.1 target:self selector:@selector(creepStep) userInfo:nil repeats:YES];
    }
}

- (void)endCreeping
{
    [_creepTimer invalidate];
    _creepOffset = 0;
    [self setNeedsDisplay];
}

- (void)drawTextInRect:(CGRect)rect
{
    [super drawTextInRect:UIEdgeInsetsInsetRect(rect, UIEdgeInsetsMake(0, _creepOffset, 0, 0))];
}

@end
