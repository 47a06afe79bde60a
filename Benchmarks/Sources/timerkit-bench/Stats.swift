/// Order statistics of a sample, nearest-rank.
struct Summary: Codable, Sendable {
    var count: Int
    var median: Double
    var p99: Double
    var max: Double
    var min: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        median = Self.percentile(sorted, 0.5)
        p99 = Self.percentile(sorted, 0.99)
        max = sorted.last ?? .nan
        min = sorted.first ?? .nan
    }

    /// The value at fraction `p` of a sorted sample (nearest rank); NaN when empty.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]
    }
}

/// The median of some values (NaN when empty).
func medianOf(_ values: [Double]) -> Double {
    Summary.percentile(values.sorted(), 0.5)
}
