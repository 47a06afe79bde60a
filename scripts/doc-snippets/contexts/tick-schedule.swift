// Each line is one TickSchedule expression.
import TimerKit

let _: TickSchedule = SNIPPET
