/// A cheap pass over the raw bytes, before any parsing, that finds files nested too deeply to analyse.
///
/// swift-syntax recurses once per nesting level (about 1,500 levels of `[` overflow the stack) and its
/// parse time doubles with every level of square brackets (`[[[…[1]…]]]`: 16 levels take about a second in
/// a debug build, 20 levels half a minute), and the Objective-C analysis walks blocks inside blocks. One such
/// file must not stop or stall the scan, so it is skipped with a diagnostic.
enum NestingDepth {
    /// The deepest `(`, `[` and `{` nesting analysed.
    static let maximumDepth = 200
    /// The deepest nesting of Swift square brackets analysed (each level doubles swift-syntax's time).
    static let maximumSquareDepth = 12

    /// The line where `source` first nests deeper than the limits, or nil when it does not. Comments and
    /// string literals are skipped; closers without an opener are ignored.
    static func tooDeep(_ source: String, language: SourceLanguage) -> Int? {
        let bytes = Array(source.utf8)
        let squareLimit = language == .swift ? maximumSquareDepth : maximumDepth
        var depth = 0
        var square: [Bool] = []  // for each open bracket: whether it is `[`
        var squareDepth = 0
        var line = 1
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "/") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "/"):
                while index < count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            case UInt8(ascii: "/") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index < count
                    && !(bytes[index] == UInt8(ascii: "*") && index + 1 < count
                        && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
                index += 2
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                // Swift has no character literals: `'` is only skipped in Objective-C.
                if byte == UInt8(ascii: "'") && language == .swift { break }
                index += 1
                while index < count && bytes[index] != byte && bytes[index] != UInt8(ascii: "\n") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                if index < count && bytes[index] == UInt8(ascii: "\n") { continue }
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                let isSquare = byte == UInt8(ascii: "[")
                square.append(isSquare)
                depth += 1
                if isSquare { squareDepth += 1 }
                if depth > maximumDepth || squareDepth > squareLimit { return line }
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let wasSquare = square.popLast() {
                    depth -= 1
                    if wasSquare { squareDepth -= 1 }
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
