import Foundation

/// What a wall-clock schedule fires at — aligned instants of the wall clock, or local times of a
/// zone's calendar — and what it does about occurrences it missed. Pure value math: the ticker that
/// runs it is a ``WallTicker``.
///
/// Instants are wall-clock nanoseconds since 1970 (UTC): the time base's reading (`TimeBase.Source
/// .wallNanoseconds()`), which a test sets under virtual time.
struct WallSchedule: Sendable, Hashable {
    enum Rule: Sendable, Hashable {
        /// Every multiple of this many nanoseconds since 1970-01-01 00:00 UTC.
        case aligned(nanoseconds: Int64)
        /// The local times of a calendar rule, in the schedule's zone.
        case calendar(CalendarRule)
    }

    let rule: Rule
    /// The zone of a calendar rule; `nil`: the time base's current zone, read at each computation.
    let timeZone: TimeZone?
    let missed: TickSchedule.MissedOccurrences
    /// How the schedule was written, for descriptions ("daily at 09:30 Europe/Paris").
    let summary: String

    /// The most occurrences one delivery counts as missed: beyond it, `skipped` saturates (counting them
    /// one by one would hold a ticker's lock for long after a very long suspension).
    static let countedOccurrences = 100_000

    static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// The zone computations use on `source`.
    func zone(on source: TimeBase.Source) -> TimeZone {
        timeZone ?? source.timeZone()
    }

    /// The first occurrence strictly after `wall`, or `nil` when the rule has no more (never for a rule
    /// the factories accept, within four years).
    func next(after wall: Int64, in zone: TimeZone) -> Int64? {
        switch rule {
        case .aligned(let step):
            return (CivilTime.floorDivide(wall, step) + 1).multipliedSaturating(by: step)
        case .calendar(let calendar):
            let second = CivilTime.floorDivide(wall, Self.nanosecondsPerSecond)
            return calendar.next(after: second, in: zone).map { $0.multipliedSaturating(by: Self.nanosecondsPerSecond) }
        }
    }

    /// The occurrences in (`floor`, `wall`], but `excluded`: how many, and the latest; `nil` when none.
    /// The count stops at ``countedOccurrences``.
    func due(after floor: Int64, through wall: Int64, excluding excluded: Int64?, in zone: TimeZone) -> (
        latest: Int64, count: Int
    )? {
        guard wall > floor else { return nil }
        switch rule {
        case .aligned(let step):
            let last = CivilTime.floorDivide(wall, step)
            var count = last - CivilTime.floorDivide(floor, step)
            guard count > 0 else { return nil }
            let latest = last.multipliedSaturating(by: step)
            if let excluded, excluded > floor, excluded <= wall, excluded % step == 0 { count -= 1 }
            guard count > 0, latest != excluded else { return nil }
            return (latest, Int(min(count, Int64(Self.countedOccurrences))))
        case .calendar:
            var latest: Int64?
            var count = 0
            var cursor = floor
            while count < Self.countedOccurrences, let occurrence = next(after: cursor, in: zone), occurrence <= wall {
                if occurrence != excluded {
                    latest = occurrence
                    count += 1
                }
                cursor = occurrence
            }
            if count == Self.countedOccurrences, cursor < wall {
                // Saturated: the latest is the last one up to now, found from just before now.
                latest = lastOccurrence(through: wall, from: cursor, in: zone) ?? latest
            }
            return latest.map { ($0, count) }
        }
    }

    /// The latest occurrence ≤ `wall`, searched from a day before it (or from `cursor`, if later).
    private func lastOccurrence(through wall: Int64, from cursor: Int64, in zone: TimeZone) -> Int64? {
        var probe = max(cursor, wall - 2 * CivilTime.secondsPerDay * Self.nanosecondsPerSecond)
        var latest: Int64?
        while let occurrence = next(after: probe, in: zone), occurrence <= wall {
            latest = occurrence
            probe = occurrence
        }
        return latest
    }
}
