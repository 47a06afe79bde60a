#import "HintPanel.h"

@implementation HintPanel

- (void)orderOut:(id)sender
{
	if(![self isVisible] || hintFadeTimer)
		return;

	[self stopHintFade:self];
	[self setValue:[NSDate date] forKey:@"hintFadeStart"];
	[self setValue:[NSTimer scheduledTimerWithTimeInterval:0.01f target:self selector:@selector(hintFadeTick:) userInfo:nil repeats:YES] forKey:@"hintFadeTimer"];
}

- (void)hintFadeTick:(id)sender
{
	CGFloat alpha = 1.0f + 2.0f * (CGFloat)[hintFadeStart timeIntervalSinceNow];

	if(alpha > 0.0f)
	{
		[self setAlphaValue:alpha];
	}
	else
	{
		[super orderOut:self];
		[self stopHintFade:self];
		[self close];
	}
}

- (void)stopHintFade:(id)sender
{
	if(hintFadeTimer)
	{
		[[self retain] autorelease];
		[hintFadeTimer invalidate];
		[self setValue:nil forKey:@"hintFadeTimer"];
		[self setValue:nil forKey:@"hintFadeStart"];
		[self setAlphaValue:1.0f];
	}
}

@end
