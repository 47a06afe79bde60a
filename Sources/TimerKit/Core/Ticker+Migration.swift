import Foundation

extension Ticker {
    /// The one entry point of the `TimerKitMigration` module: a main-actor ticker on the main run loop,
    /// bound to `owner` (an owner or a target), whose handler also receives a handle to its ticker (a
    /// handle that does not own it: releasing it does nothing).
    @MainActor
    package static func scheduleForMigration<Owner: AnyObject>(
        _ schedule: TickSchedule,
        owner: Owner,
        isTarget: Bool,
        fileID: String,
        line: Int,
        _ handler: @escaping @MainActor (Owner, Ticker) -> Void
    ) -> Ticker {
        let box = MainActorHandler(handler)
        return makeBound(
            schedule, on: .main, owner: owner, binding: isTarget ? .target : .owner, startsImmediately: true,
            fileID: fileID, line: line
        ) { owner, _, engine, id in
            box.call(owner, Ticker(engine: engine, id: id, binding: .view))
        }
    }
}
