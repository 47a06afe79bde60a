// Statements in an async function whose `session` is the owner object of a tick sequence.
import TimerKit

func example(session: some AnyObject & Sendable) async {
    SNIPPET
}
