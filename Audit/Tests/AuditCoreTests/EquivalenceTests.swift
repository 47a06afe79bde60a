import Foundation
import SwiftParser
import SwiftSyntax
import Testing

@testable import AuditCore

/// The scan's faster spellings give what the ones they replace gave: `trimmedText` the text of swift-syntax's
/// `trimmedDescription` for every node (of the Swift fixtures and of files with syntax errors, with missing tokens
/// at either end), `Fingerprint.lineRanges` the lines of `split(separator: "\n")`.
struct EquivalenceTests {
    final class Comparison: SyntaxAnyVisitor {
        var nodes = 0
        var differing: [String] = []

        override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
            nodes += 1
            if node.trimmedText != node.trimmedDescription { differing.append(node.trimmedDescription) }
            return .visitChildren
        }
    }

    @Test func equalsTrimmedDescriptionOnEveryNode() throws {
        let folder = FixtureTests.directory.appendingPathComponent("Swift")
        var sources = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
        sources += [
            "func f( {\n  let x = \n}\n",
            "class A { var t = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) {",
            "  /* c */ timer?.invalidate() // end\r\n", "let = ", "@objc func", "#selector(", "",
        ]
        let comparison = Comparison(viewMode: .all)
        for source in sources { comparison.walk(Parser.parse(source: source)) }
        #expect(comparison.nodes > 10_000)
        #expect(comparison.differing == [])
    }

    @Test func lineRangesAreTheLinesOfSplittingAtNewlineCharacters() {
        let texts = [
            "", "\n", "a", "a\nb", "a\r\nb\n", "\r\n\r\n", "\n\r\n\r", "é\u{301}\nx\r", "a\n\nb\n\n", "\r\r\n\n",
        ]
        for text in texts {
            let expected = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(Fingerprint.lineRanges(text).map { String(text[$0]) } == expected)
        }
    }
}
