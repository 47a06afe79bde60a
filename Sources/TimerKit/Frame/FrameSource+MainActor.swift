extension FrameSource {
    /// Subscribes a main-actor handler bound to `owner` — a view, view controller or view model — on a
    /// source that delivers on the main thread: ``display(refreshRate:)``, or
    /// ``software(refreshRate:on:)`` on `.main`.
    ///
    /// The handler runs on the main thread, isolated to the main actor, so it may use the owner's
    /// main-actor state directly. Otherwise as ``subscribe(_:owner:fileID:line:_:)``: the owner is held
    /// weakly, the subscription ends with it, keeping the handle is optional. Subscribing on a source whose
    /// context is not `.main` stops the program with a message. On Linux the main thread must run
    /// `RunLoop.main`; under virtual time, advance from the main thread.
    @MainActor
    @discardableResult
    public func subscribeOnMainActor<Owner: AnyObject>(
        _ range: FrameRateRange = .native,
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @MainActor (Owner, FrameTick) -> Void
    ) -> FrameSubscription {
        Diagnostics.require(
            context == .main,
            "TimerKit: subscribeOnMainActor needs a source on the main run loop (FrameSource.display() or "
                + "FrameSource.software(on: .main)); this one delivers on \(context)")
        let box = MainActorHandler(handler)
        return subscribe(range, owner: owner, fileID: fileID, line: line) { owner, frame in box.call(owner, frame) }
    }
}
