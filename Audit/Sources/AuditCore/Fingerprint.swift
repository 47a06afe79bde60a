/// Line-independent fingerprints, so that a baseline keeps matching a finding when code above it moves.
enum Fingerprint {
    /// Gives each finding (sorted by position) `rule:hash`, where the hash covers the rule, the finding's line
    /// with its spaces collapsed and the number of earlier findings of the file with the same rule and text.
    static func assign(to findings: inout [Finding], source: String) {
        guard !findings.isEmpty else { return }
        let lines = lineRanges(source)
        var occurrences: [String: Int] = [:]
        for index in findings.indices {
            let number = findings[index].line
            let text = number >= 1 && number <= lines.count ? normalized(source[lines[number - 1]]) : ""
            let key = findings[index].rule + "\u{0}" + text
            let occurrence = occurrences[key, default: 0]
            occurrences[key] = occurrence + 1
            findings[index].fingerprint = hash(key + "\u{0}\(occurrence)")
        }
    }

    /// The lines of `source` as `source.split(separator: "\n", omittingEmptySubsequences: false)` gives them,
    /// found in its UTF-8 bytes rather than its characters: a line ends at each `\n` that is not the end of a
    /// `\r\n` (which is one character, not the `"\n"` separator).
    static func lineRanges(_ source: String) -> [Range<String.Index>] {
        let utf8 = source.utf8
        var ranges: [Range<String.Index>] = []
        var start = utf8.startIndex
        var previous: UInt8 = 0
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") {
                ranges.append(start..<index)
                start = next
            }
            previous = byte
            index = next
        }
        ranges.append(start..<utf8.endIndex)
        return ranges
    }

    /// The line without leading and trailing spaces, runs of spaces and tabs as one space.
    static func normalized(_ line: Substring) -> String {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }

    /// 64-bit FNV-1a of the UTF-8 bytes, as 16 hex digits: stable across runs and platforms.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
