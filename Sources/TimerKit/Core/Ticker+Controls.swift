extension Ticker {
    // MARK: Everyday controls

    /// Starts the schedule again from now: deadline 1 is one first delay from now (a countdown counts
    /// from its full `count` again, a one-shot waits its whole delay again), and the ticker is `running`.
    ///
    /// | State | `restart()` |
    /// |---|---|
    /// | `idle` | starts, as ``start()`` |
    /// | `running` | the deadlines count from now; the one that was next is dropped, not delivered |
    /// | `paused` | runs again, deadlines counting from now (the time kept at the pause is dropped) |
    /// | `finished`, `cancelled` | nothing: the handler was released when the ticker stopped |
    ///
    /// ``fireCount`` keeps counting (it counts handler calls), ``Tick/index`` starts again at 1, and a
    /// ``fire()`` still pending is still delivered. Safe from any thread and from inside the handler; in the
    /// handler of a schedule's last tick the ticker already reads `finished`, so restarting there does
    /// nothing. A finished ticker cannot restart (in debug builds, trying logs a warning; it released its
    /// handler when it finished). To start again whatever the state — a "resend in 60 s" button tapped
    /// before or after the end — schedule a new ticker and assign it where the old handle was kept
    /// (`countdown = Ticker.schedule(…)`): an owner-bound ticker replaced that way stops (see the type's
    /// summary), so two never run.
    ///
    /// Typical uses: a carousel that advances every few seconds restarts after the user drags it, and a
    /// debounce-like one-shot restarts at each keystroke.
    public func restart() { withEngine { $0.perform(.restart, on: id) } }

    /// The time left until the next scheduled deadline; `nil` once the ticker is `finished` or `cancelled`
    /// (and for a wall-clock schedule that is not running, below).
    ///
    /// - `running`: from now to the next deadline, measured on the ticker's clock (under virtual time, the
    ///   virtual clock); zero when that deadline has passed and its delivery is on its way.
    /// - `paused`: the time that was left at ``pause()``, which ``resume()`` will wait (it does not shrink
    ///   while paused).
    /// - `idle`: the schedule's first delay, which ``start()`` will wait.
    ///
    /// A pending ``fire()`` is not a deadline and does not shorten it (``nextDeadline`` includes it).
    ///
    /// A wall-clock schedule (``TickSchedule/followsWallClock``) has a next deadline only while running:
    /// idle or paused it reads `nil`, since ``start()`` and ``resume()`` compute the next occurrence from
    /// the wall clock then; running, it is the time to the next occurrence by the wall clock as it reads now.
    public var timeRemaining: Duration? { engine.timeRemaining(id) }

    /// The clock the ticker's deadlines count on (its schedule's `clock:`): ``TickClock/uptime`` unless the
    /// schedule said otherwise. ``Tick/deadline``, ``Tick/timestamp`` and ``nextDeadline`` are instants of
    /// this clock, so `clock.now` reads the same timeline.
    public var clock: TickClock { engine.clock.tickClock }
}
