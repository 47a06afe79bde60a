/// Line-independent fingerprints, so that a baseline keeps matching a finding when code above it moves.
enum Fingerprint {
    /// Gives each finding (sorted by position) `rule:hash`, where the hash covers the rule, the finding's line
    /// with its spaces collapsed and the number of earlier findings of the file with the same rule and text.
    static func assign(to findings: inout [Finding], source: String) {
        guard !findings.isEmpty else { return }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        var occurrences: [String: Int] = [:]
        for index in findings.indices {
            let number = findings[index].line
            let text = number >= 1 && number <= lines.count ? normalized(lines[number - 1]) : ""
            let key = findings[index].rule + "\u{0}" + text
            let occurrence = occurrences[key, default: 0]
            occurrences[key] = occurrence + 1
            findings[index].fingerprint = hash(key + "\u{0}\(occurrence)")
        }
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
