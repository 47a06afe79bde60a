extension FrameSource {
    /// Subscribes a main-actor handler bound to `owner` — a view, view controller or view model — to the
    /// display's frames: leave out the source and you are on the main actor, as with tickers.
    ///
    /// The frames come from ``display(refreshRate:file:line:)`` (a `CADisplayLink` on iOS, tvOS and visionOS; the
    /// software source on the main run loop elsewhere and under virtual time). The handler runs on the
    /// main thread, isolated to the main actor, so it may use the owner's state directly. Otherwise as
    /// ``subscribe(_:owner:fileID:line:_:)-356qd``: the owner is held weakly, the subscription ends with it, and
    /// keeping the returned handle is optional. On Linux the main thread must run `RunLoop.main`.
    ///
    /// ```swift
    /// @MainActor final class ProgressView {
    ///     var progress = 0.0
    ///
    ///     func animate() {
    ///         FrameSource.subscribe(owner: self) { view, frame in
    ///             view.progress = min(1, view.progress + frame.duration / .seconds(2))
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - range: the acceptable frame rates; snapped to a rate the display source can deliver.
    ///   - refreshRate: the display's refresh rate passed to ``display(refreshRate:file:line:)``; default 60.
    ///   - owner: the object whose lifetime bounds the subscription; never retained.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called on the main actor with the owner and the ``FrameTick``.
    @MainActor
    @discardableResult
    public static func subscribe<Owner: AnyObject>(
        _ range: FrameRateRange = .native,
        refreshRate: Double = 60,
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @MainActor (Owner, FrameTick) -> Void
    ) -> FrameSubscription {
        let box = MainActorHandler(handler)
        return display(refreshRate: refreshRate).bind(range, owner: owner, fileID: fileID, line: line) {
            owner, frame in box.call(owner, frame)
        }
    }
}
