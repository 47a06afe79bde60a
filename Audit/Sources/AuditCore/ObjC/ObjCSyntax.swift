/// The structure timerkit-audit needs from Objective-C tokens: matching brackets, the innermost brace
/// around each token, classes with their properties and ivars, methods, message sends and blocks.
struct ObjCSyntax {
    let tokens: [ObjCToken]
    /// For each `(`, `[` and `{` the index of its closing token and back; -1 when unbalanced.
    private(set) var match: [Int]
    /// For each token the index of the innermost `{` around it, or -1.
    private(set) var scope: [Int]
    private(set) var unbalancedLine: Int?

    init(tokens: [ObjCToken]) {
        self.tokens = tokens
        match = Array(repeating: -1, count: tokens.count)
        scope = Array(repeating: -1, count: tokens.count)
        var stack: [Int] = []
        var braces: [Int] = []
        for index in tokens.indices {
            scope[index] = braces.last ?? -1
            let token = tokens[index]
            guard token.kind == .punctuation else { continue }
            switch token.text {
            case "(", "[", "{":
                stack.append(index)
                if token.text == "{" { braces.append(index) }
            case ")", "]", "}":
                // The opener is looked for among the innermost few open groups only, so that unbalanced
                // input (thousands of stray closers) stays linear; a closer without one nearby is stray.
                let opener = Self.opener(of: token.text)
                let floor = max(0, stack.count - Self.openerSearchLimit)
                guard let position = stack[floor...].lastIndex(where: { tokens[$0].text == opener }) else {
                    unbalancedLine = unbalancedLine ?? token.line
                    continue
                }
                if position != stack.count - 1 { unbalancedLine = unbalancedLine ?? token.line }
                while let open = braces.last, open >= stack[position] { braces.removeLast() }
                match[stack[position]] = index
                match[index] = stack[position]
                stack.removeSubrange(position...)
            default:
                continue
            }
        }
        if let open = stack.first { unbalancedLine = unbalancedLine ?? tokens[open].line }
    }

    /// How many open groups a closer looks through for its opener.
    static let openerSearchLimit = 16

    private static func opener(of closer: String) -> String {
        switch closer {
        case ")": "("
        case "]": "["
        default: "{"
        }
    }

    func text(_ index: Int) -> String {
        index >= 0 && index < tokens.count ? tokens[index].text : ""
    }

    func isPunctuation(_ index: Int, _ text: String) -> Bool {
        index >= 0 && index < tokens.count && tokens[index].kind == .punctuation && tokens[index].text == text
    }

    func isIdentifier(_ index: Int) -> Bool {
        index >= 0 && index < tokens.count && tokens[index].kind == .identifier
    }

    /// Tokens joined without spaces: `self.timer`, `self->_timer`.
    func joined(_ range: Range<Int>) -> String {
        range.map { tokens[$0].text }.joined()
    }

    /// Whether the token ends an expression, so that an identifier after it starts a selector part.
    func endsExpression(_ index: Int) -> Bool {
        guard index >= 0 && index < tokens.count else { return false }
        switch tokens[index].kind {
        case .identifier, .literal, .number: return true
        case .punctuation: return [")", "]", "}"].contains(tokens[index].text)
        case .atKeyword: return false
        }
    }

    /// Whether `index` is inside `container` (a brace or bracket pair's opening index).
    func isInside(_ index: Int, _ container: Int) -> Bool {
        container >= 0 && index > container && match[container] >= 0 && index < match[container]
    }

    /// Skips a parenthesised, bracketed or braced group starting at `index`.
    func after(_ index: Int) -> Int {
        match[index] > index ? match[index] + 1 : index + 1
    }
}

/// `[receiver part:argument part:argument]`.
struct MessageSend {
    struct Part {
        var name: String
        var label: Int
        var arguments: Range<Int>
    }

    var open: Int
    var close: Int
    var receiver: Range<Int>
    var parts: [Part]

    var names: [String] { parts.map(\.name) }

    func argument(_ name: String) -> Range<Int>? {
        parts.first { $0.name == name }?.arguments
    }

    func label(_ name: String) -> Int? {
        parts.first { $0.name == name }?.label
    }
}

extension ObjCSyntax {
    private static let keywordsBeforeExpression: Set<String> = ["return", "in", "else", "do", "case", "throw"]

    /// The message send that `[` at `open` starts, or nil for a subscript, an attribute or unbalanced input.
    func messageSend(at open: Int) -> MessageSend? {
        let close = match[open]
        guard close > open + 1 else { return nil }
        if open > 0, endsExpression(open - 1),
            !(tokens[open - 1].kind == .identifier && Self.keywordsBeforeExpression.contains(tokens[open - 1].text)),
            !closesConditionOrCast(open - 1)
        {
            return nil
        }
        var parts: [MessageSend.Part] = []
        var receiverEnd: Int?
        var index = open + 1
        while index < close {
            let token = tokens[index]
            if token.kind == .punctuation, ["(", "[", "{"].contains(token.text) {
                index = after(index)
                continue
            }
            if token.kind == .identifier, index > open + 1, endsExpression(index - 1), isPunctuation(index + 1, ":") {
                if let last = parts.indices.last { parts[last].arguments = parts[last].arguments.lowerBound..<index }
                receiverEnd = receiverEnd ?? index
                parts.append(MessageSend.Part(name: token.text, label: index, arguments: (index + 2)..<close))
                index += 2
                continue
            }
            index += 1
        }
        if parts.isEmpty {
            let last = close - 1
            guard last > open + 1, tokens[last].kind == .identifier, endsExpression(last - 1),
                !isPunctuation(last - 1, "."), !isPunctuation(last - 1, "->")
            else { return nil }
            return MessageSend(
                open: open, close: close, receiver: (open + 1)..<last,
                parts: [MessageSend.Part(name: tokens[last].text, label: last, arguments: close..<close)])
        }
        return MessageSend(open: open, close: close, receiver: (open + 1)..<(receiverEnd ?? open + 1), parts: parts)
    }

    private static let statementsWithCondition: Set<String> = ["if", "while", "for", "switch"]

    /// Whether the `)` at `close` ends an `if`/`while`/`for`/`switch` condition or a cast (`(NSTimer *)`,
    /// `(id)`, `(__bridge id)`), after which `[` starts a message send rather than a subscript.
    func closesConditionOrCast(_ close: Int) -> Bool {
        guard isPunctuation(close, ")") else { return false }
        let open = match[close]
        guard open >= 0, open < close else { return false }
        if open > 0, tokens[open - 1].kind == .identifier, Self.statementsWithCondition.contains(tokens[open - 1].text)
        {
            return true
        }
        let inner = (open + 1)..<close
        guard !inner.isEmpty else { return false }
        if isPunctuation(close - 1, "*") || inner.contains(where: { tokens[$0].text.hasPrefix("__bridge") }) {
            return true
        }
        guard inner.count == 1, tokens[open + 1].kind == .identifier, let first = tokens[open + 1].text.first else {
            return false
        }
        return tokens[open + 1].text == "id" || first.isUppercase
    }

    /// The brace that opens the body of a block literal whose `^` is at `caret`, or nil.
    func blockBody(at caret: Int) -> Int? {
        var index = caret + 1
        var steps = 0
        while index < tokens.count, steps < 12 {
            let token = tokens[index]
            if token.kind == .punctuation {
                switch token.text {
                case "{": return match[index] > index ? index : nil
                case "(": index = after(index)
                case "*": index += 1
                default: return nil
                }
            } else {
                index += 1
            }
            steps += 1
        }
        return nil
    }

    /// The start of the statement that contains `index`: the token after the previous `;`, `{` or `}`.
    func statementStart(before index: Int, notBefore floor: Int) -> Int {
        var start = index
        while start - 1 > floor {
            let token = tokens[start - 1]
            if token.kind == .punctuation, [";", "{", "}"].contains(token.text) { break }
            start -= 1
        }
        return start
    }

    /// The arguments of a C call `name(a, b)` whose name is at `index`, split at top-level commas.
    func callArguments(at index: Int) -> [Range<Int>]? {
        guard isPunctuation(index + 1, "("), match[index + 1] > index + 1 else { return nil }
        let close = match[index + 1]
        var arguments: [Range<Int>] = []
        var start = index + 2
        var cursor = start
        while cursor < close {
            if tokens[cursor].kind == .punctuation, ["(", "[", "{"].contains(tokens[cursor].text) {
                cursor = after(cursor)
                continue
            }
            if isPunctuation(cursor, ",") {
                arguments.append(start..<cursor)
                start = cursor + 1
            }
            cursor += 1
        }
        arguments.append(start..<close)
        return arguments
    }
}
