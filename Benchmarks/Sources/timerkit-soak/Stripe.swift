import Foundation
import TimerKit

/// One churn thread's share of the slots (every `width`-th slot from `first`), with the slots that
/// handlers asked to refill. Handlers on any context and the stripe's churn thread share it.
final class Stripe: @unchecked Sendable {
    let first: Int
    let width: Int
    let count: Int
    // Invariant: the `var`s below are read or written only while `lock` is held.
    private let lock = NSLock()
    private var entries: [Entry]
    private var serials: [UInt64]
    private var refills: [Int] = []
    private var isOpen = true

    init(first: Int, width: Int, slots: Int) {
        self.first = first
        self.width = width
        count = slots > first ? (slots - first + width - 1) / width : 0
        entries = Array(repeating: .empty, count: count)
        serials = Array(repeating: 0, count: count)
    }

    /// The global slot numbers of this stripe.
    var slots: StrideTo<Int> { stride(from: first, to: first + count * width, by: width) }

    private func local(_ slot: Int) -> Int { (slot - first) / width }

    /// A new serial for `slot`, for the entry about to be created there.
    func reserve(_ slot: Int) -> SlotTag {
        lock.withLock {
            serials[local(slot)] += 1
            return SlotTag(slot: slot, serial: serials[local(slot)])
        }
    }

    /// Puts `entry` in its slot and returns what the caller must drop: the slot's previous entry, or
    /// `entry` itself when the stripe is closed or the slot was reserved again since.
    func install(_ entry: Entry, as tag: SlotTag) -> Entry {
        lock.withLock {
            guard isOpen, serials[local(tag.slot)] == tag.serial else { return entry }
            defer { entries[local(tag.slot)] = entry }
            return entries[local(tag.slot)]
        }
    }

    /// The slot's entry and serial, left in place.
    func peek(_ slot: Int) -> (entry: Entry, tag: SlotTag) {
        lock.withLock { (entries[local(slot)], SlotTag(slot: slot, serial: serials[local(slot)])) }
    }

    /// Empties the slot if it still holds `tag`'s entry, queues it for a refill, and returns the entry
    /// for the caller to drop (`.empty` if stale).
    func release(_ tag: SlotTag) -> Entry {
        lock.withLock {
            guard serials[local(tag.slot)] == tag.serial, !entries[local(tag.slot)].isEmpty else { return .empty }
            defer {
                entries[local(tag.slot)] = .empty
                if isOpen { refills.append(tag.slot) }
            }
            return entries[local(tag.slot)]
        }
    }

    /// Queues the slot for a refill if it still holds `tag`'s entry (its ticker finished or was cancelled).
    func finished(_ tag: SlotTag) {
        lock.withLock {
            if isOpen, serials[local(tag.slot)] == tag.serial { refills.append(tag.slot) }
        }
    }

    /// The slots queued for a refill since the last call.
    func takeRefills() -> [Int] {
        lock.withLock {
            defer { refills = [] }
            return refills
        }
    }

    /// Closes the stripe (installs and refills are refused from now on) and returns every entry, emptied
    /// out, for the caller to drop.
    func close() -> [Entry] {
        lock.withLock {
            isOpen = false
            refills = []
            defer { entries = Array(repeating: .empty, count: count) }
            return entries.filter { !$0.isEmpty }
        }
    }

    func reopen() {
        lock.withLock { isOpen = true }
    }
}
