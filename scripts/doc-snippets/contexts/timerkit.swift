// Blocks that leave out `import TimerKit` (the articles are about TimerKit).
import TimerKit

SNIPPET
