extension Ticker {
    // Main-actor forms: for `@MainActor` owners such as view controllers and view models. They take no
    // context: the handler runs on the main run loop in common modes, on the main thread, isolated to
    // the main actor. On Linux the main thread must run `RunLoop.main` (as `RunLoop.main.run()` or an app
    // framework does) for these to fire.

    /// Schedules a main-actor handler bound to `owner` on the main run loop (common modes). The owner is
    /// held weakly; see ``schedule(_:on:owner:startsImmediately:fileID:line:_:)`` for the lifetime rules.
    @MainActor
    @discardableResult
    public static func schedule<Owner: AnyObject>(
        _ schedule: TickSchedule,
        owner: Owner,
        startsImmediately: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @MainActor (Owner, Tick) -> Void
    ) -> Ticker {
        makeBoundToMain(
            schedule, owner: owner, binding: .owner, startsImmediately: startsImmediately,
            fileID: fileID, line: line, handler)
    }

    /// Schedules main-actor target–action (`Screen.tick`, taking a ``Tick``) on the main run loop
    /// (common modes); the target is held weakly.
    @MainActor
    @discardableResult
    public static func schedule<Target: AnyObject>(
        _ schedule: TickSchedule,
        target: Target,
        action: @escaping @MainActor (Target) -> (Tick) -> Void,
        startsImmediately: Bool = true,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Ticker {
        makeBoundToMain(
            schedule, owner: target, binding: .target, startsImmediately: startsImmediately,
            fileID: fileID, line: line
        ) { target, tick in action(target)(tick) }
    }

    /// Schedules main-actor target–action with a method that takes no argument (`Screen.refresh`) on the
    /// main run loop (common modes); the target is held weakly.
    @MainActor
    @discardableResult
    public static func schedule<Target: AnyObject>(
        _ schedule: TickSchedule,
        target: Target,
        action: @escaping @MainActor (Target) -> () -> Void,
        startsImmediately: Bool = true,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Ticker {
        makeBoundToMain(
            schedule, owner: target, binding: .target, startsImmediately: startsImmediately,
            fileID: fileID, line: line
        ) { target, _ in action(target)() }
    }

    /// Schedules a main-actor handler owned by the returned handle, on the main run loop (common modes).
    /// Releasing the handle cancels.
    @MainActor
    public static func schedule(
        _ schedule: TickSchedule,
        startsImmediately: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @MainActor (Tick) -> Void
    ) -> Ticker {
        make(
            schedule, on: .main, binding: .handle, owner: nil, ownerType: nil, startsImmediately: startsImmediately,
            fileID: fileID, line: line,
            handler: .tick { tick in MainActor.assumeIsolated { handler(tick) } })
    }

    @MainActor
    private static func makeBoundToMain<Owner: AnyObject>(
        _ schedule: TickSchedule,
        owner: Owner,
        binding: TickerBinding,
        startsImmediately: Bool,
        fileID: String,
        line: Int,
        _ handler: @escaping @MainActor (Owner, Tick) -> Void
    ) -> Ticker {
        let box = MainActorHandler(handler)
        return makeBound(
            schedule, on: .main, owner: owner, binding: binding, startsImmediately: startsImmediately,
            fileID: fileID, line: line
        ) { owner, tick in box.call(owner, tick) }
    }
}

/// Carries a main-actor handler and its owner onto the main thread, where the main run loop delivers.
struct MainActorHandler<Owner: AnyObject, Argument>: @unchecked Sendable {
    // Invariant: `call` is only invoked by the main run loop's engine, on the main thread, where
    // `MainActor.assumeIsolated` holds (it traps with a message otherwise).
    let handler: @MainActor (Owner, Argument) -> Void

    init(_ handler: @escaping @MainActor (Owner, Argument) -> Void) {
        self.handler = handler
    }

    func call(_ owner: Owner, _ argument: Argument) {
        // The owner was loaded from its weak reference on this (main) thread and is not used elsewhere.
        nonisolated(unsafe) let owner = owner
        nonisolated(unsafe) let argument = argument
        MainActor.assumeIsolated { handler(owner, argument) }
    }
}
