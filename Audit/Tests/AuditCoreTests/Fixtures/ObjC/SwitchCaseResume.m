// Resumes in different cases of a switch are different branches: no double resume.
// expect-none
#import <Foundation/Foundation.h>

typedef NS_ENUM(NSInteger, PlayerState) { PlayerStateIdle, PlayerStatePaused };

@implementation Metronome {
    dispatch_source_t _timer;
    PlayerState _state;
}

- (void)play {
    switch (_state) {
        case PlayerStateIdle:
            dispatch_resume(_timer);   // first start: the source was created suspended
            break;
        case PlayerStatePaused:
            dispatch_resume(_timer);   // balances the dispatch_suspend in -pause
            break;
    }
    _state = PlayerStateIdle;
}

- (void)pause {
    dispatch_suspend(_timer);
    _state = PlayerStatePaused;
}

@end
