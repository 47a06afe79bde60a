// Each line is one TickSchedule expression.
import Foundation
import TimerKit

let _: TickSchedule = SNIPPET
