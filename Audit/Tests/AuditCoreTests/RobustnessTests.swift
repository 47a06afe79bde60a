import Foundation
import Testing

@testable import AuditCore

/// Malformed, binary and non-UTF-8 input gives a diagnostic and the scan goes on; directories are walked
/// as documented; scanned files are never modified.
struct RobustnessTests {
    static let objectiveCLeak = """
        @implementation Clock
        - (void)start {
            [NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(tick) userInfo:nil repeats:YES];
        }
        @end

        """

    static let swiftLeak = """
        final class Clock {
            var timer: Timer?
            func start() {
                timer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(tick), userInfo: nil, repeats: true)
            }
            @objc func tick() {}
            func stop() { timer?.invalidate() }
        }

        """

    /// A fresh directory with the given files (path → bytes); removed by the caller.
    func makeTree(_ files: [String: [UInt8]]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("timerkit-audit-\(UUID().uuidString)")
        for (path, bytes) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return root
    }

    @Test func binaryAndInvalidUTF8FilesAreSkippedAndTheScanGoesOn() throws {
        let root = try makeTree([
            "a-binary.m": Array("@implementation X\n".utf8) + [0, 1, 2, 0],
            "b-latin1.swift": Array("let café = 1 // ".utf8) + [0xE9, 0xFF, 0xFE],
            "c-good.m": Array(Self.objectiveCLeak.utf8),
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let report = Auditor.audit(paths: [root.path])
        #expect(report.filesScanned == 3)
        #expect(report.findings.map(\.rule) == ["timer-target-retain"])
        #expect(report.findings.first?.path.hasSuffix("c-good.m") == true)
        let messages = report.diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("binary") })
        #expect(messages.contains { $0.contains("UTF-8") })
    }

    @Test func unterminatedObjectiveCCommentAndStringGiveDiagnostics() {
        let comment = Self.objectiveCLeak + "/* never closed\n[NSTimer scheduledTimerWithTimeInterval:1"
        let result = Auditor.audit(source: comment, path: "a.m", language: .objectiveC)
        #expect(result.findings.map(\.rule) == ["timer-target-retain"])
        #expect(result.diagnostics.contains { $0.message.contains("unterminated /*") && $0.line == 6 })

        let string = "@implementation Y\n- (void)a { NSLog(@\"never closed);\n}\n@end\n" + Self.objectiveCLeak
        let second = Auditor.audit(source: string, path: "b.m", language: .objectiveC)
        #expect(second.findings.map(\.rule) == ["timer-target-retain"])
        #expect(second.diagnostics.contains { $0.message.contains("unterminated string") && $0.line == 2 })

        let brackets = "@implementation Z\n- (void)a { [[NSTimer alloc] ( }\n@end\n" + Self.objectiveCLeak
        let third = Auditor.audit(source: brackets, path: "c.m", language: .objectiveC)
        #expect(third.diagnostics.contains { $0.message.contains("unbalanced") })
    }

    /// A macro continued with `\` before a CRLF line end, and a directive right after a byte order mark, were
    /// read as code (unbalanced brackets, findings lost).
    @Test func crlfContinuationsAndByteOrderMarksAreHandled() {
        let macro = "#define START(t) \\\r\n    do { t = [NSTimer new]; \\\r\n    }\r\n"
        let crlf = macro + Self.objectiveCLeak.replacingOccurrences(of: "\n", with: "\r\n")
        let first = Auditor.audit(source: crlf, path: "a.m", language: .objectiveC)
        #expect(first.findings.map(\.rule) == ["timer-target-retain"])
        #expect(first.findings.first?.line == 6)
        #expect(first.diagnostics.isEmpty, "\(first.diagnostics)")

        let bom = "\u{FEFF}#define OPEN {\n" + Self.objectiveCLeak
        let second = Auditor.audit(source: bom, path: "b.m", language: .objectiveC)
        #expect(second.findings.map(\.rule) == ["timer-target-retain"])
        #expect(second.diagnostics.isEmpty, "\(second.diagnostics)")
    }

    @Test func malformedSwiftGivesADiagnosticAndStillReportsWhatItCan() {
        let source = Self.swiftLeak + "func broken( {\n let Timer = \n"
        let result = Auditor.audit(source: source, path: "a.swift", language: .swift)
        #expect(result.findings.map(\.rule) == ["timer-target-retain"])
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.message.contains("syntax errors") == true)
    }

    /// `[[[…]]]` 1,500 levels deep overflowed swift-syntax's stack (and killed the scan), 20 levels took
    /// half a minute: such files are skipped with a diagnostic, quickly, and the next file is still read.
    @Test func deeplyNestedFilesAreSkippedQuicklyAndTheScanGoesOn() throws {
        func nested(_ depth: Int, _ open: String, _ close: String) -> [UInt8] {
            let inner = String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)
            return Array("import Foundation\nlet a = \(inner)\nlet t = Timer.self\n".utf8)
        }
        let root = try makeTree([
            "a-1500.swift": nested(1500, "[", "]"), "b-20.swift": nested(20, "[", "]"),
            "c-typed.swift": Array("let t: Timer\nlet a: [[[[[[[[[[[[[[Int]]]]]]]]]]]]]] = []\n".utf8),
            "d-blocks.m": Array(
                ("@implementation D\n- (void)f {\n" + String(repeating: "^{ ", count: 5000)
                    + String(repeating: "}; ", count: 5000) + "\n}\n@end\n// NSTimer\n").utf8),
            "e-good.swift": Array(Self.swiftLeak.utf8),
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let start = ContinuousClock.now
        let report = Auditor.audit(paths: [root.path])
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(report.findings.map(\.rule) == ["timer-target-retain"])
        let skipped = report.diagnostics.filter { $0.message == "nesting too deep to analyse; skipped" }
        #expect(
            skipped.map { URL(fileURLWithPath: $0.path).lastPathComponent }.sorted() == [
                "a-1500.swift", "b-20.swift", "c-typed.swift", "d-blocks.m",
            ])
        // Twelve levels of square brackets and 200 of parentheses are still analysed.
        let twelve = String(repeating: "[", count: 12) + "1" + String(repeating: "]", count: 12)
        let kept = Auditor.audit(source: Self.swiftLeak + "let a = \(twelve)\n", path: "k.swift", language: .swift)
        #expect(kept.findings.count == 1 && kept.diagnostics.isEmpty)
        let parentheses = String(repeating: "(", count: 190) + "1" + String(repeating: ")", count: 190)
        let deepCall = Auditor.audit(
            source: Self.objectiveCLeak + "int x = \(parentheses);\n", path: "p.m", language: .objectiveC)
        #expect(deepCall.findings.count == 1)
    }

    /// Thousands of stray closers took quadratic time to match (5,000: 2.8 s); matching is now linear.
    @Test func unbalancedObjectiveCBracketsAreMatchedInLinearTime() {
        let source = String(repeating: "( ", count: 20000) + String(repeating: "] ", count: 20000)
        let (tokens, _) = ObjCLexer.tokenize(source)
        let start = ContinuousClock.now
        let syntax = ObjCSyntax(tokens: tokens)
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(syntax.unbalancedLine != nil)
        let nested = ObjCSyntax(tokens: ObjCLexer.tokenize("{ ( [ ] ) { } }").tokens)
        #expect(nested.match == [7, 4, 3, 2, 1, 6, 5, 0] && nested.unbalancedLine == nil)
    }

    @Test func arbitraryBytesNeverCrash() {
        var generator = SplitMix(seed: 42)
        let alphabet = Array("[](){}^@\"'/*\\\n;:=.-> selftarget NSTimer Timer repeats:YES weak __weak".utf8)
        for _ in 0..<200 {
            let length = Int(generator.next() % 400)
            let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let text = String(decoding: bytes, as: UTF8.self)
            _ = Auditor.audit(source: text, path: "fuzz.m", language: .objectiveC)
            _ = Auditor.audit(source: text, path: "fuzz.swift", language: .swift)
        }
    }

    @Test func directoriesSkipHiddenAndDependencyFolders() throws {
        let leak = Array(Self.objectiveCLeak.utf8)
        let root = try makeTree([
            ".build/checkouts/Dep.m": leak, ".git/hooks/x.m": leak, "Pods/Lib/Lib.m": leak,
            "Carthage/Checkouts/Lib.m": leak, "DerivedData/Gen.m": leak, "node_modules/x/y.m": leak,
            "App/Feature/Clock.m": leak, "App/Clock.swift": Array(Self.swiftLeak.utf8), "App/notes.txt": leak,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let report = Auditor.audit(paths: [root.path + "/"])
        #expect(report.filesScanned == 2)
        #expect(report.findings.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["Clock.swift", "Clock.m"])
        #expect(!report.findings.contains { $0.path.contains("//") })
        let named = Auditor.audit(paths: [root.appendingPathComponent("Pods/Lib/Lib.m").path])
        #expect(named.findings.count == 1, "a file named on the command line is always scanned")
    }

    /// A directory that cannot be listed was skipped without a word; it now gives a diagnostic.
    @Test func unreadableDirectoryGivesADiagnostic() throws {
        let root = try makeTree([
            "locked/a.swift": Array(Self.swiftLeak.utf8), "open/b.m": Array(Self.objectiveCLeak.utf8),
        ])
        let locked = root.appendingPathComponent("locked").path
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked)
            try? FileManager.default.removeItem(at: root)
        }
        let report = Auditor.audit(paths: [root.path])
        #expect(report.findings.map { URL(fileURLWithPath: $0.path).lastPathComponent }.contains("b.m"))
        if (try? FileManager.default.contentsOfDirectory(atPath: locked)) == nil {
            #expect(report.diagnostics.contains { $0.path == locked && $0.message.contains("cannot be read") })
        }
        // As root the permissions do not stop the listing: make it fail instead.
        struct Denied: Error {}
        let scan = FileWalker.scan([root.path]) { path in
            if path.hasSuffix("/locked") { throw Denied() }
            return try FileManager.default.contentsOfDirectory(atPath: path)
        }
        #expect(scan.unreadable == [locked])
        #expect(scan.files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["b.m"])
    }

    @Test func scanningNeverModifiesFiles() throws {
        let root = try makeTree([
            "Clock.m": Array(Self.objectiveCLeak.utf8), "Clock.swift": Array(Self.swiftLeak.utf8),
            "Broken.m": Array("/* open".utf8), "Blob.h": [0, 0, 0],
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let names = ["Clock.m", "Clock.swift", "Broken.m", "Blob.h"]
        func snapshot() throws -> [String: (Data, Date, Int)] {
            var result: [String: (Data, Date, Int)] = [:]
            for name in names {
                let path = root.appendingPathComponent(name).path
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                result[name] = (
                    try Data(contentsOf: URL(fileURLWithPath: path)), attributes[.modificationDate] as! Date,
                    (attributes[.posixPermissions] as? Int) ?? -1
                )
            }
            return result
        }
        let before = try snapshot()
        let listing = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        _ = Auditor.audit(paths: [root.path])
        let after = try snapshot()
        for name in names {
            #expect(before[name]?.0 == after[name]?.0, "\(name) contents")
            #expect(before[name]?.1 == after[name]?.1, "\(name) modification date")
            #expect(before[name]?.2 == after[name]?.2, "\(name) permissions")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == listing)
    }

    @Test func reportOrderIsDeterministic() {
        let first = Auditor.audit(paths: [FixtureTests.directory.path])
        let second = Auditor.audit(paths: [FixtureTests.directory.path])
        #expect(first.findings == second.findings)
        #expect(first.findings == first.findings.sorted(by: Finding.ordered))
    }
}

/// A small deterministic generator for the fuzz test.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
