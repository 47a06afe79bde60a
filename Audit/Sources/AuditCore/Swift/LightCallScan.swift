/// A quick pass over a Swift file that mentions no timer: it is not parsed, only read for the methods it
/// calls (`view.stopAnimating()`, `#selector(stop)`, `timer = nil`), the functions and types it declares and
/// which function each call is in, so that a stop in another file counts where this file calls it.
enum LightCallScan {
    private static let notCalls: Set<String> = [
        "if", "while", "guard", "switch", "for", "return", "func", "init", "catch", "repeat", "in", "case", "let",
        "var", "try", "await", "throw", "else", "where", "as", "is", "super", "self", "Self",
    ]

    /// Whether the class whose name is at `name..<end` is an app delegate: `@main`, `@UIApplicationMain` or
    /// `@NSApplicationMain` just before `class`, or a conformance whose name ends in `ApplicationDelegate` before
    /// its opening brace. It lives for the whole process, and so does what it alone makes.
    static func isAppDelegate(_ bytes: [UInt8], name: Int, end: Int) -> Bool {
        // The attributes of this declaration: the text since the end of the one before.
        let before = String(decoding: bytes[max(0, name - 80)..<name], as: UTF8.self).split(separator: "}").last ?? ""
        if before.contains("@main") || before.contains("@UIApplicationMain") || before.contains("@NSApplicationMain") {
            return true
        }
        var brace = end
        while brace < min(bytes.count, end + 400), bytes[brace] != 0x7B { brace += 1 }
        return String(decoding: bytes[end..<brace], as: UTF8.self).contains("ApplicationDelegate")
    }

    static func swiftFacts(_ source: String, path: String) -> FileFacts {
        var facts = FileFacts()
        let bytes = Array(source.utf8)
        var index = 0
        var line = 1
        var lineStart = 0
        var depth = 0
        var previous = ""
        var beforePrevious = ""
        var pendingFunction: String?
        var pendingStatic = false
        var pendingType: String?
        var functions: [(depth: Int, name: String, isStatic: Bool)] = []
        var types: [(depth: Int, name: String)] = []
        func isIdentifierByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte >= 0x80
        }
        func nextSignificant(_ from: Int) -> Int {
            var cursor = from
            while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 { cursor += 1 }
            return cursor
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x0A:
                line += 1
                lineStart = index + 1
                index += 1
            case 0x2F where index + 1 < bytes.count && bytes[index + 1] == 0x2F:
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            case 0x2F where index + 1 < bytes.count && bytes[index + 1] == 0x2A:
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == 0x2A && bytes[index + 1] == 0x2F) {
                    if bytes[index] == 0x0A {
                        line += 1
                        lineStart = index + 1
                    }
                    index += 1
                }
                index += 2
            case 0x22:
                index += 1
                while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x0A {
                    index += bytes[index] == 0x5C ? 2 : 1
                }
                index += 1
            case 0x7B:
                depth += 1
                if let name = pendingFunction {
                    functions.append((depth, name, pendingStatic))
                    pendingFunction = nil
                } else if let name = pendingType {
                    types.append((depth, name))
                    pendingType = nil
                }
                index += 1
            case 0x7D:
                if functions.last?.depth == depth { functions.removeLast() }
                if types.last?.depth == depth { types.removeLast() }
                depth -= 1
                index += 1
            case _ where isIdentifierByte(byte):
                let start = index
                while index < bytes.count, isIdentifierByte(bytes[index]) { index += 1 }
                let word = String(decoding: bytes[start..<index], as: UTF8.self)
                let next = nextSignificant(index)
                let typeName = types.last?.name ?? ""
                if ["class", "struct", "enum", "actor", "extension", "protocol"].contains(previous) {
                    pendingType = word
                    if previous != "extension" { facts.types[word, default: TypeFacts()].declared = true }
                    if previous == "class", Self.isAppDelegate(bytes, name: start, end: index) {
                        facts.types[word, default: TypeFacts()].livesForProcess = true
                    }
                } else if previous == "func" {
                    pendingFunction = word
                    pendingStatic = Self.linePrefix(bytes, from: lineStart, to: start).contains {
                        $0 == "static" || $0 == "class"
                    }
                    facts.types[typeName, default: TypeFacts()].methods.insert(word)
                } else if word == "deinit" {
                    pendingFunction = "deinit"
                } else if next < bytes.count, !notCalls.contains(word), previous != "func",
                    !(previous == "." && ["invalidate", "cancel", "removeAll"].contains(word)),
                    bytes[next] == 0x28 || (beforePrevious == "#" && previous == "selector")
                        || (bytes[next] == 0x3D && next + 1 < bytes.count && bytes[next + 1] != 0x3D
                            && String(
                                decoding: bytes[
                                    nextSignificant(next + 1)..<min(bytes.count, nextSignificant(next + 1) + 3)],
                                as: UTF8.self) == "nil")
                {
                    let function = functions.last?.name ?? ""
                    let callee = bytes[next] == 0x3D ? SetterName.key(word) : word
                    let onSelf = previous != "." || beforePrevious == "self"
                    let inStatic =
                        (functions.last?.isStatic ?? false)
                        || (functions.isEmpty && Self.linePrefix(bytes, from: lineStart, to: start).contains("static"))
                    facts.calls.append(
                        MethodCall(
                            callee: callee, path: path, line: line, column: start - lineStart + 1, callerType: typeName,
                            callerMethod: function, inDeinit: function == "deinit",
                            inLifecycle: SwiftContext.lifecycleNames.contains(function), onSelf: onSelf,
                            inStatic: inStatic))
                }
                beforePrevious = previous
                previous = word
            case 0x23:
                beforePrevious = previous
                previous = "#"
                index += 1
            case 0x28 where previous == "selector" && beforePrevious == "#":
                index += 1
            default:
                if byte != 0x20 && byte != 0x09 {
                    beforePrevious = previous
                    previous = String(UnicodeScalar(byte))
                }
                index += 1
            }
        }
        return facts
    }

    /// The words of the line before `end`: `["static", "let", "shared"]`.
    private static func linePrefix(_ bytes: [UInt8], from start: Int, to end: Int) -> [Substring] {
        let text = String(decoding: bytes[min(start, end)..<end], as: UTF8.self)
        return text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
    }
}

/// The key under which a property's setter is called and stopped: `setTimer` for `timer`.
enum SetterName {
    static func key(_ property: String) -> String {
        var name = property
        if name.hasPrefix("_") { name.removeFirst() }
        guard let first = name.first else { return "set" }
        return "set" + first.uppercased() + name.dropFirst()
    }
}
