import SwiftSyntax

extension SyntaxProtocol {
    /// The node's source text without the leading trivia of its first token and the trailing trivia of its last
    /// token: the same text as swift-syntax's `trimmedDescription`, read from the node's bytes instead of from a
    /// trimmed copy of the node (which allocates a new tree for every call, a large part of a scan's time).
    var trimmedText: String {
        let bytes = syntaxTextBytes
        var start = 0
        var end = bytes.count
        // `trimmed` clears the trivia of the first and last tokens, missing ones included; a missing token has
        // no text, so only a present one's trivia is left out here.
        if let first = firstToken(viewMode: .all), first.presence == .present {
            start = first.leadingTriviaLength.utf8Length
        }
        if let last = lastToken(viewMode: .all), last.presence == .present {
            end -= last.trailingTriviaLength.utf8Length
        }
        guard start < end else { return "" }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
