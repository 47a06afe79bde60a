#import <UIKit/UIKit.h>

@interface CreepingLabel : UILabel
{
    NSTimer     *_creepTimer;
    NSInteger   _creepOffset;
    NSInteger   _creepPause;
}

- (void)beginCreeping;
- (void)endCreeping;

@end
