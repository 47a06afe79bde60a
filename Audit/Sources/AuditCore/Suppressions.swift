/// Suppression comments: `// timerkit-audit:ignore` silences every rule, and
/// `// timerkit-audit:ignore rule-a, rule-b` the rules it names, on the comment's own line and on every line of
/// the statement that starts on the next line (a comment alone on its line, above the statement) or on the
/// comment's line (a comment after code). `/* … */` comments work the same way; the marker in a string literal
/// does nothing.
struct Suppressions {
    static let marker = "timerkit-audit:ignore"
    /// A statement is followed for at most this many lines.
    static let maximumStatementLines = 200

    /// Line → the rules silenced there; an empty set silences every rule.
    private var byLine: [Int: Set<String>] = [:]

    init(text: String, language: SourceLanguage) {
        guard text.contains(Self.marker) else { return }
        let scanner = SuppressionScanner(bytes: Array(text.utf8), language: language)
        for comment in scanner.comments() {
            guard let range = comment.text.range(of: Self.marker) else { continue }
            var rest = comment.text[range.upperBound...]
            if let close = rest.range(of: "*/") { rest = rest[..<close.lowerBound] }
            let rules = Set(
                rest.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init))
            let statementLine = comment.followsCode ? comment.line : comment.endLine + 1
            let last = max(scanner.statementEnd(startingAtLine: statementLine), comment.endLine + 1)
            for target in comment.line...last {
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

/// Finds comments (not markers inside string literals) and where a statement ends.
private struct SuppressionScanner {
    struct Comment {
        var text: String
        var line: Int
        var endLine: Int
        /// Whether code stands before the comment on its first line.
        var followsCode: Bool
    }

    let bytes: [UInt8]
    let language: SourceLanguage
    /// The offset where each line starts (index 0 is line 1).
    let lineStarts: [Int]

    init(bytes: [UInt8], language: SourceLanguage) {
        self.bytes = bytes
        self.language = language
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        lineStarts = starts
    }

    private func byte(_ index: Int) -> UInt8 { index < bytes.count ? bytes[index] : 0 }

    private func isTripleQuote(_ index: Int) -> Bool {
        language == .swift && byte(index) == UInt8(ascii: "\"") && byte(index + 1) == UInt8(ascii: "\"")
            && byte(index + 2) == UInt8(ascii: "\"")
    }

    /// Skips a comment or string literal starting at `index`: the offset after it, or nil when none starts.
    private func skipLiteral(at index: Int, line: inout Int) -> Int? {
        let current = byte(index)
        if current == UInt8(ascii: "/") && byte(index + 1) == UInt8(ascii: "/") {
            var end = index
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            return end
        }
        if current == UInt8(ascii: "/") && byte(index + 1) == UInt8(ascii: "*") {
            var end = index + 2
            while end < bytes.count && !(bytes[end] == UInt8(ascii: "*") && byte(end + 1) == UInt8(ascii: "/")) {
                if bytes[end] == UInt8(ascii: "\n") { line += 1 }
                end += 1
            }
            return min(end + 2, bytes.count)
        }
        if isTripleQuote(index) {
            var end = index + 3
            while end < bytes.count && !isTripleQuote(end) {
                if bytes[end] == UInt8(ascii: "\n") { line += 1 }
                end += 1
            }
            return min(end + 3, bytes.count)
        }
        let isCharacter = current == UInt8(ascii: "'") && language == .objectiveC
        if current == UInt8(ascii: "\"") || isCharacter {
            var end = index + 1
            while end < bytes.count && bytes[end] != current && bytes[end] != UInt8(ascii: "\n") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            return min(end + 1, bytes.count)
        }
        return nil
    }

    func comments() -> [Comment] {
        var result: [Comment] = []
        var index = 0
        var line = 1
        var codeOnLine = false
        while index < bytes.count {
            let current = bytes[index]
            if current == UInt8(ascii: "\n") {
                line += 1
                codeOnLine = false
                index += 1
                continue
            }
            let startLine = line
            if let end = skipLiteral(at: index, line: &line) {
                if current == UInt8(ascii: "/") {
                    result.append(
                        Comment(
                            text: String(decoding: bytes[index..<end], as: UTF8.self), line: startLine, endLine: line,
                            followsCode: codeOnLine))
                } else {
                    codeOnLine = true
                }
                index = max(end, index + 1)
                continue
            }
            if current != UInt8(ascii: " ") && current != UInt8(ascii: "\t") && current != UInt8(ascii: "\r") {
                codeOnLine = true
            }
            index += 1
        }
        return result
    }

    /// The last line of the statement that starts on `startLine`: it ends at a `;` or a closing `}` outside
    /// brackets, or (in Swift) at the end of a line outside brackets that does not continue on the next line.
    /// A line without code ends it at once.
    func statementEnd(startingAtLine startLine: Int) -> Int {
        guard startLine >= 1 && startLine <= lineStarts.count else { return startLine }
        var index = lineStarts[startLine - 1]
        var line = startLine
        var depth = 0
        var sawCode = false
        var lastCode: UInt8 = 0
        while index < bytes.count && line - startLine < Suppressions.maximumStatementLines {
            let current = bytes[index]
            if current == UInt8(ascii: "\n") {
                if !sawCode { return line }
                if language == .swift && depth <= 0 && !continues(after: lastCode, nextLine: index + 1) { return line }
                line += 1
                index += 1
                continue
            }
            if let end = skipLiteral(at: index, line: &line) {
                if current != UInt8(ascii: "/") {
                    sawCode = true
                    lastCode = current
                }
                index = max(end, index + 1)
                continue
            }
            switch current {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"):
                depth -= 1
                if depth < 0 { return line }
            case UInt8(ascii: "}"):
                depth -= 1
                if depth < 0 || (depth == 0 && language == .objectiveC) { return line }
            case UInt8(ascii: ";") where depth <= 0:
                return line
            default:
                break
            }
            if current != UInt8(ascii: " ") && current != UInt8(ascii: "\t") && current != UInt8(ascii: "\r") {
                sawCode = true
                lastCode = current
            }
            index += 1
        }
        return line
    }

    /// Whether a Swift statement goes on past a line break: the line ends with an operator or a comma, or the
    /// next line starts with `.` (a member chain).
    private func continues(after last: UInt8, nextLine: Int) -> Bool {
        if Array("=,.+-*/&|(".utf8).contains(last) { return true }
        var index = nextLine
        while index < bytes.count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) {
            index += 1
        }
        return byte(index) == UInt8(ascii: ".")
    }
}
