/// A token of Objective-C (or C, or C++) source.
struct ObjCToken {
    enum Kind: UInt8 {
        /// An identifier or keyword: `self`, `NSTimer`, `return`.
        case identifier
        /// `@` followed by an identifier: `@interface`, `@end`, `@strongify`.
        case atKeyword
        /// A string or character literal, `@"…"` included; its text is not kept, except for an `@"…"` that is an
        /// identifier (`@"timer"`, a key-value coding key): `@"timer"`.
        case literal
        /// A number.
        case number
        /// Punctuation; `->` and the two-character comparison and assignment operators are one token.
        case punctuation
    }

    var kind: Kind
    var text: String
    var line: Int
    var column: Int
}

/// A careful lexer for Objective-C: comments, preprocessor lines and literals are skipped correctly, and
/// malformed input (an unterminated comment or literal) gives a diagnostic instead of a crash.
struct ObjCLexer {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private(set) var tokens: [ObjCToken] = []
    private(set) var problems: [(line: Int, message: String)] = []

    static func tokenize(_ source: String) -> (tokens: [ObjCToken], problems: [(line: Int, message: String)]) {
        var lexer = ObjCLexer(bytes: Array(source.utf8))
        lexer.run()
        return (lexer.tokens, lexer.problems)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        tokens.reserveCapacity(bytes.count / 4)
    }

    private static let twoCharacterOperators: Set<String> = [
        "->", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "|=", "&=", "<<", ">>", "::",
    ]

    private mutating func run() {
        var atLineStart = true
        // A UTF-8 byte order mark is not a token: a directive right after it still starts the line.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                newline()
                atLineStart = true
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                index += 1
                continue
            case UInt8(ascii: "#") where atLineStart:
                let start = index
                skipDirective()
                if directiveWords(from: start) == ["if", "0"] { skipDisabledLines() }
                continue
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                skipLineComment()
                continue
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                skipBlockComment()
                continue
            default:
                break
            }
            atLineStart = false
            lexToken(byte)
        }
    }

    private mutating func lexToken(_ byte: UInt8) {
        let start = index
        let column = index - lineStart + 1
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            skipLiteral(quote: byte)
            append(.literal, "\"\"", column: column)
        } else if byte == UInt8(ascii: "@"), peek(1) == UInt8(ascii: "\"") {
            index += 1
            skipLiteral(quote: UInt8(ascii: "\""))
            // A key naming a property (`@"timer"` in `setValue:forKey:`) keeps its text; other strings do not.
            let content = bytes[min(start + 2, index)..<max(start + 2, index - 1)]
            let isKey =
                index - start <= 67 && bytes[index - 1] == UInt8(ascii: "\"")
                && content.first.map(Self.isIdentifierStart) == true && content.allSatisfy(Self.isIdentifierPart)
            append(.literal, isKey ? text(start) : "\"\"", column: column)
        } else if byte == UInt8(ascii: "@"), let next = peek(1), Self.isIdentifierStart(next) {
            index += 1
            while index < bytes.count, Self.isIdentifierPart(bytes[index]) { index += 1 }
            append(.atKeyword, text(start), column: column)
        } else if Self.isIdentifierStart(byte) {
            while index < bytes.count, Self.isIdentifierPart(bytes[index]) { index += 1 }
            append(.identifier, text(start), column: column)
        } else if Self.isDigit(byte) {
            while index < bytes.count, Self.isIdentifierPart(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
                index += 1
            }
            append(.number, text(start), column: column)
        } else {
            index += 1
            if index < bytes.count, bytes[index] < 0x80, bytes[index] > 0x20 {
                let pair = String(decoding: bytes[start...index], as: UTF8.self)
                if Self.twoCharacterOperators.contains(pair) { index += 1 }
            }
            append(.punctuation, text(start), column: column)
        }
    }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private func text(_ start: Int) -> String {
        String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func append(_ kind: ObjCToken.Kind, _ text: String, column: Int) {
        tokens.append(ObjCToken(kind: kind, text: text, line: line, column: column))
    }

    private mutating func newline() {
        index += 1
        line += 1
        lineStart = index
    }

    /// A preprocessor line, with its backslash continuations and any comments on it.
    private mutating func skipDirective() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "\n") {
                index += 1
                newline()
            } else if byte == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "\r"), peek(2) == UInt8(ascii: "\n") {
                index += 2
                newline()
            } else if byte == UInt8(ascii: "\n") {
                return
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                skipBlockComment()
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                skipLineComment()
            } else {
                index += 1
            }
        }
    }

    /// The words of the directive that starts at `start` (`#if 0 // old` → `if`, `0`), comments left out.
    private func directiveWords(from start: Int) -> [Substring] {
        var text = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        for marker in ["//", "/*"] {
            if let comment = text.range(of: marker) { text = String(text[..<comment.lowerBound]) }
        }
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
    }

    /// The lines of an `#if 0` up to its `#else`, `#elif` or `#endif` (nested conditionals skipped whole):
    /// code the compiler never sees.
    private mutating func skipDisabledLines() {
        var depth = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { newline() }
            var cursor = index
            while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") {
                cursor += 1
            }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "#") else {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            }
            index = cursor
            skipDirective()
            guard let word = directiveWords(from: cursor).first else { continue }
            switch word {
            case "if", "ifdef", "ifndef": depth += 1
            case "endif" where depth > 0: depth -= 1
            case "endif": return
            case "else", "elif": if depth == 0 { return }
            default: continue
            }
        }
    }

    private mutating func skipLineComment() {
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
    }

    private mutating func skipBlockComment() {
        let startLine = line
        index += 2
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                index += 2
                return
            }
            if bytes[index] == UInt8(ascii: "\n") { newline() } else { index += 1 }
        }
        problems.append((startLine, "unterminated /* comment; the rest of the file is not analysed"))
    }

    /// A string or character literal. A newline before the closing quote ends it with a diagnostic (C
    /// literals cannot span lines without a backslash), so one stray quote cannot swallow the file.
    private mutating func skipLiteral(quote: UInt8) {
        let startLine = line
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                if peek(1) == UInt8(ascii: "\n") {
                    index += 1
                    newline()
                } else {
                    index += 2
                }
                continue
            }
            if byte == quote {
                index += 1
                return
            }
            if byte == UInt8(ascii: "\n") { break }
            index += 1
        }
        index = min(index, bytes.count)
        problems.append((startLine, "unterminated string or character literal; lexing resumes on the next line"))
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func isIdentifierPart(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }
}
