/// Suppression comments: `// timerkit-audit:ignore` silences every rule, and
/// `// timerkit-audit:ignore rule-a, rule-b` the rules it names, on the comment's own line and on the line
/// after it (so the comment may stand above the statement). `/* … */` comments work the same way.
struct Suppressions {
    static let marker = "timerkit-audit:ignore"

    /// Line → the rules silenced there; an empty set silences every rule.
    private var byLine: [Int: Set<String>] = [:]

    init(text: String) {
        guard text.contains(Self.marker) else { return }
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            guard let range = line.range(of: Self.marker) else { continue }
            var rest = line[range.upperBound...]
            if let close = rest.range(of: "*/") { rest = rest[..<close.lowerBound] }
            let rules = Set(
                rest.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init))
            for target in [lineNumber, lineNumber + 1] {
                if let existing = byLine[target] {
                    byLine[target] = existing.isEmpty || rules.isEmpty ? [] : existing.union(rules)
                } else {
                    byLine[target] = rules
                }
            }
        }
    }

    /// Whether a comment silences `finding`.
    func silences(_ finding: Finding) -> Bool {
        guard let rules = byLine[finding.line] else { return false }
        return rules.isEmpty || rules.contains(finding.rule)
    }
}
