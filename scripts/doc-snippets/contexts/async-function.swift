// Statements in an async function that has a `clock`.
import TimerKit

func example<C: Clock>(clock: C) async where C.Duration == Duration {
    SNIPPET
}
