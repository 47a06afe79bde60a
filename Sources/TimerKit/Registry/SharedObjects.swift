/// Objects shared by key: one per key while it lives. Held weakly, or strongly for permanent entries.
///
/// Lives inside a `Locked`; use ``Locked/object(for:permanent:make:)``, which releases every reference the
/// registry loaded only after unlocking (loading a weak reference makes a strong one, which may turn out
/// to be the last, and an object's deinit must not run under the lock).
struct SharedObjects<Key: Hashable, Object: AnyObject> {
    fileprivate struct Entry {
        weak var weakObject: Object?
        var strongObject: Object?
        var object: Object? { strongObject ?? weakObject }
    }

    private var entries: [Key: Entry] = [:]
    /// Dead weak entries are swept when the table reaches this size (then twice the live count).
    private var sweepThreshold = 16
    /// The entry found last: most lookups repeat the previous key, and comparing keys costs less than
    /// hashing one.
    private var recentKey: Key?
    private var recentEntry = Entry()

    /// The live object for `key`, if any (a strong reference: release it outside the lock).
    mutating func object(for key: Key) -> Object? {
        if recentKey == key, let object = recentEntry.strongObject ?? recentEntry.weakObject { return object }
        guard let entry = entries[key], let object = entry.object else { return nil }
        recentKey = key
        recentEntry = entry
        return object
    }

    /// Registers `object` unless a live one is already there. Returns the object to use and the objects
    /// the caller must release after unlocking.
    mutating func register(_ object: Object, for key: Key, permanent: Bool) -> (winner: Object, released: [Object]) {
        if let existing = entries[key]?.object { return (existing, [object]) }
        var loaded: [Object] = []
        if entries.count >= sweepThreshold {
            entries = entries.filter { entry in
                guard let object = entry.value.object else { return false }
                loaded.append(object)
                return true
            }
            sweepThreshold = max(16, entries.count * 2)
        }
        let entry = permanent ? Entry(weakObject: nil, strongObject: object) : Entry(weakObject: object)
        entries[key] = entry
        recentKey = key
        recentEntry = entry
        return (object, loaded)
    }

    /// Every live object.
    func all() -> [Object] {
        entries.values.compactMap(\.object)
    }
}

extension Locked {
    /// The live object registered under `key`, or the one `make` returns (made outside the lock),
    /// registered. If another thread registered one meanwhile, the first wins. References loaded under the
    /// lock are released after unlocking.
    func object<Key, Object>(for key: Key, permanent: Bool, make: () -> Object) -> Object
    where Value == SharedObjects<Key, Object> {
        if let existing = withLock({ $0.object(for: key) }) { return existing }
        let made = make()
        let (winner, released) = withLock { $0.register(made, for: key, permanent: permanent) }
        _ = released
        return winner
    }
}

extension SharedObjects: Sendable where Key: Sendable, Object: Sendable {}
extension SharedObjects.Entry: Sendable where Object: Sendable {}
