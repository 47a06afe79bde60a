import Foundation

extension Ticker {
    // Main-actor forms: leave out `on:` and you are on the main actor. For `@MainActor` owners such as
    // views, view controllers and view models. The handler runs on the main run loop, on the main thread,
    // isolated to the main actor, in the run-loop `modes` given (common modes by default, so that it keeps
    // firing while a scroll view tracks; pass `[.default]` for a ticker that must wait while the user
    // drags). On Linux the main thread must run `RunLoop.main` (as `RunLoop.main.run()` or an app
    // framework does) for these to fire.

    /// Schedules a main-actor handler bound to `owner` on the main run loop. The owner is held weakly and
    /// passed to the handler, so the handler has no reason to capture it; the ticker stops for good when
    /// the owner goes away (see ``schedule(_:on:owner:startsImmediately:fileID:line:_:)`` for the exact
    /// lifetime rules). Keeping the returned handle is optional; assigning a new ticker from the same line
    /// where it is kept (`countdown = Ticker.schedule(…)` again) stops the old one.
    ///
    /// ```swift
    /// @MainActor final class Carousel {
    ///     var page = 0
    ///     var autoScroll: Ticker?
    ///
    ///     func startAutoScroll() {
    ///         // [.default]: waits while the user drags, like the scroll view's own timers.
    ///         autoScroll = Ticker.schedule(.every(.seconds(3)), modes: [.default], owner: self) { carousel, _ in
    ///             carousel.page += 1
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - schedule: when to fire.
    ///   - modes: the main run loop's modes the ticker fires in; default `[.common]`. An empty array means
    ///     `[.common]`.
    ///   - owner: the object whose lifetime bounds the ticker; never retained.
    ///   - startsImmediately: `false` creates an `idle` ticker that waits for ``start()``.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called on the main actor with the owner and the ``Tick``.
    @MainActor
    @discardableResult
    public static func schedule<Owner: AnyObject>(
        _ schedule: TickSchedule,
        modes: [RunLoop.Mode] = [.common],
        owner: Owner,
        startsImmediately: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @MainActor (Owner, Tick) -> Void
    ) -> Ticker {
        makeBoundToMain(
            schedule, modes: modes, owner: owner, binding: .owner, startsImmediately: startsImmediately,
            fileID: fileID, line: line, handler)
    }

    /// Schedules main-actor target–action on the main run loop with an unbound method reference such as
    /// `Screen.tick` (a method taking a ``Tick``); the target is held weakly. The Swift form of a
    /// weak-proxy timer target: the ticker stops for good when the target goes away, as with `owner:`.
    ///
    /// Target–action exists only on the main actor: a method reference does not carry its isolation
    /// through a conversion that the compiler can check, so on other contexts pass `owner:` and a closure
    /// that calls the method.
    @MainActor
    @discardableResult
    public static func schedule<Target: AnyObject>(
        _ schedule: TickSchedule,
        modes: [RunLoop.Mode] = [.common],
        target: Target,
        action: @escaping @MainActor (Target) -> (Tick) -> Void,
        startsImmediately: Bool = true,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Ticker {
        makeBoundToMain(
            schedule, modes: modes, owner: target, binding: .target, startsImmediately: startsImmediately,
            fileID: fileID, line: line
        ) { target, tick in action(target)(tick) }
    }

    /// Schedules a main-actor handler owned by the returned handle, on the main run loop. Releasing the
    /// handle cancels the ticker, like `AnyCancellable`; keep it, for example in a property.
    ///
    /// If the handler would capture the object that keeps the handle, pass that object as `owner:`.
    @MainActor
    public static func schedule(
        _ schedule: TickSchedule,
        modes: [RunLoop.Mode] = [.common],
        startsImmediately: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @MainActor (Tick) -> Void
    ) -> Ticker {
        make(
            schedule, on: .runLoop(.main, modes: modes), binding: .handle, owner: nil, ownerType: nil,
            startsImmediately: startsImmediately, fileID: fileID, line: line,
            handler: .tick { tick in MainActor.assumeIsolated { handler(tick) } })
    }

    @MainActor
    private static func makeBoundToMain<Owner: AnyObject>(
        _ schedule: TickSchedule,
        modes: [RunLoop.Mode],
        owner: Owner,
        binding: Lifetime.Binding,
        startsImmediately: Bool,
        fileID: String,
        line: Int,
        _ handler: @escaping @MainActor (Owner, Tick) -> Void
    ) -> Ticker {
        let box = MainActorHandler(handler)
        return makeBound(
            schedule, on: .runLoop(.main, modes: modes), owner: owner, binding: binding,
            startsImmediately: startsImmediately, fileID: fileID, line: line
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
