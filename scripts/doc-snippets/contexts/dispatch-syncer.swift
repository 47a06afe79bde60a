// Statements in a method of a class with a `queue` and `func sync()`, using Dispatch only.
import Dispatch

final class Syncer {
    let queue = DispatchQueue(label: "com.example.sync")

    func sync() {}

    func start() {
        SNIPPET
    }
}
