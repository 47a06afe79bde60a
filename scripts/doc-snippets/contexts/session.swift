// Statements in an async function that has a `session` object.
import TimerKit

final class Session {}

func example(session: Session) async {
    SNIPPET
}
