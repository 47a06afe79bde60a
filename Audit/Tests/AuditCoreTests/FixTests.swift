import Foundation
import Testing

@testable import AuditCore

/// `--fix`: the unified diff of the exact fix-its, `--fix --write`, overlaps, line endings, paths, exit status.
struct FixTests {
    /// A finding on `line` with `edits` (1-based lines and columns, end exclusive), for the applier alone.
    func finding(line: Int, rule: String = "timer-target-retain", _ edits: [FixIt]) -> Finding {
        var finding = Finding(
            path: "File.swift", line: line, column: 1, rule: rule, severity: .warning, message: "m", fix: "f")
        finding.fixIts = edits
        return finding
    }

    func edit(_ line: Int, _ column: Int, _ endLine: Int, _ endColumn: Int, _ text: String) -> FixIt {
        FixIt(line: line, column: column, endLine: endLine, endColumn: endColumn, replacement: text)
    }

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func diffIsUnifiedWithContextAndOneHunkForNearbyChanges() throws {
        let source = AdoptionTests.leak
        let findings = Auditor.audit(source: source, path: "Poller.swift", language: .swift).findings
        let file = Fixer.fix(findings, in: Array(source.utf8), path: "Poller.swift")
        #expect(file.applied.count == 1)
        #expect(file.skipped.isEmpty)
        let expected = """
            --- a/Poller.swift
            +++ b/Poller.swift
            @@ -1,10 +1,12 @@
             import Foundation
            +import TimerKit
            +import TimerKitMigration
             \("")
             @MainActor final class Poller {
            -    var timer: Timer?
            +    var timer: Ticker?
             \("")
                 func start() {
            -        timer = Timer.scheduledTimer(timeInterval: 2, target: self, selector: #selector(poll), userInfo: nil, repeats: true)
            +        timer = Timer.scheduledTimer(timeInterval: 2, target: self, action: Poller.poll, repeats: true)
                 }
             \("")
                 @objc func poll() {}

            """
        #expect(file.diff == expected)
        #expect(text(file.fixed) == AdoptionTests().apply(findings[0].fixIts, to: source))
    }

    @Test func distantChangesGetHunksOfTheirOwnWithCorrectLineNumbers() {
        let source = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let fix = finding(line: 2, [edit(2, 1, 2, 1, "new A\nnew B\n"), edit(18, 6, 18, 8, "eighteen")])
        let file = Fixer.fix([fix], in: Array(source.utf8), path: "File.swift")
        let lines = file.diff.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.hasPrefix("@@") } == ["@@ -1,4 +1,6 @@", "@@ -15,6 +17,6 @@"])
        #expect(lines.contains("-line 18"))
        #expect(lines.contains("+line eighteen"))
        #expect(text(file.fixed).hasPrefix("line 1\nnew A\nnew B\nline 2\n"))
    }

    @Test func overlappingFixesSkipTheLaterOneWholeAndSharedEditsApplyOnce() {
        let source = "let a = 1\nlet b = 2\n"
        let header = edit(1, 1, 1, 1, "import X\n")
        let first = finding(line: 1, [header, edit(1, 9, 1, 10, "10")])
        let second = finding(line: 2, [header, edit(2, 9, 2, 10, "20")])
        let third = finding(
            line: 2, rule: "block-timer-strong-self", [edit(1, 5, 1, 10, "c = 3"), edit(2, 5, 2, 6, "d")])
        let file = Fixer.fix([third, second, first], in: Array(source.utf8), path: "File.swift")
        #expect(text(file.fixed) == "import X\nlet a = 10\nlet b = 20\n")
        #expect(file.applied == [first, second])
        #expect(file.skipped.map(\.finding) == [third])
        #expect(file.skipped.first?.reason.contains("overlap those of the timer-target-retain fix at 1:1") == true)
        // Two different insertions at one place, and an insertion inside a replaced range, overlap too.
        let inserts = Fixer.fix(
            [finding(line: 1, [edit(1, 1, 1, 1, "A")]), finding(line: 2, [edit(1, 1, 1, 1, "B")])],
            in: Array(source.utf8), path: "File.swift")
        #expect(text(inserts.fixed) == "Alet a = 1\nlet b = 2\n")
        #expect(inserts.skipped.count == 1)
        let inside = Fixer.fix(
            [finding(line: 1, [edit(1, 1, 1, 4, "var")]), finding(line: 2, [edit(1, 2, 1, 2, "!")])],
            in: Array(source.utf8), path: "File.swift")
        #expect(inside.skipped.count == 1)
        #expect(text(inside.fixed) == "var a = 1\nlet b = 2\n")
    }

    @Test func editsThatDoNotFitTheFileAreSkippedNotApplied() {
        let source = "let a = 1\nlet é = 2"
        let bad = [
            edit(9, 1, 9, 1, "x"),  // past the last line
            edit(1, 20, 1, 20, "x"),  // past the line's end
            edit(2, 6, 2, 6, "x"),  // inside `é` (two bytes)
            edit(1, 5, 1, 2, "x"),  // ends before it starts
            edit(0, 1, 0, 1, "x"),
        ]
        for fixIt in bad {
            let file = Fixer.fix([finding(line: 1, [fixIt])], in: Array(source.utf8), path: "File.swift")
            #expect(file.applied.isEmpty, "\(fixIt)")
            #expect(file.fixed == Array(source.utf8))
            #expect(file.diff.isEmpty)
        }
        // The end of the last line (no newline after it) is a place in the file.
        let end = Fixer.fix([finding(line: 2, [edit(2, 11, 2, 11, "0")])], in: Array(source.utf8), path: "File.swift")
        #expect(text(end.fixed) == "let a = 1\nlet é = 20")
    }

    @Test func fileWithoutTrailingNewlineIsMarkedInTheDiffAndStaysSo() {
        let source = "a\nb\nc"
        let file = Fixer.fix([finding(line: 3, [edit(3, 1, 3, 2, "C")])], in: Array(source.utf8), path: "File.swift")
        #expect(text(file.fixed) == "a\nb\nC")
        #expect(
            file.diff == """
                --- a/File.swift
                +++ b/File.swift
                @@ -1,3 +1,3 @@
                 a
                 b
                -c
                \\ No newline at end of file
                +C
                \\ No newline at end of file

                """)
        // A change above the last line: the last line is context, still without a newline.
        let above = Fixer.fix([finding(line: 1, [edit(1, 1, 1, 2, "A")])], in: Array(source.utf8), path: "File.swift")
        #expect(above.diff.hasSuffix(" c\n\\ No newline at end of file\n"))
        #expect(text(above.fixed) == "A\nb\nc")
    }

    /// A seeded generator, so that a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }

    /// The text a unified diff of `original` describes, applied as `patch` would (hunks in order, context and
    /// removed lines taken from the original, `\ No newline at end of file` dropping the line end just added).
    func rebuild(_ original: [UInt8], diff: String) -> [UInt8] {
        let old = LineTable.split(original)
        var out: [UInt8] = []
        var position = 0
        var lines = LineTable.split(Array(diff.utf8)).dropFirst(2)
        var previous: Character = " "
        while let line = lines.popFirst() {
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix("@@ -") {
                let numbers = text.dropFirst(4).prefix { $0 != " " }.split(separator: ",").compactMap { Int($0) }
                let start = numbers[1] == 0 ? numbers[0] : numbers[0] - 1
                for index in position..<start { out += old[index] }
                position = start
            } else if text.hasPrefix(" ") {
                out += old[position]
                position += 1
            } else if text.hasPrefix("-") {
                position += 1
            } else if text.hasPrefix("+") {
                out += line.dropFirst()
            } else if text.hasPrefix("\\"), previous == "+" {
                out.removeLast()  // the line end the diff added after a new last line without one
            }
            previous = text.first ?? " "
        }
        for index in position..<old.count { out += old[index] }
        return out
    }

    @Test func randomEditsNeverCrashAndTheDiffRebuildsTheFixedText() {
        var random = SplitMix(state: 2026)
        let pieces = ["a", "é", "计", " ", "\n", "\n", "\r\n", "\t", "x = 1", "}", ""]
        var applied = 0
        for round in 0..<400 {
            var source = (0..<Int.random(in: 0...30, using: &random)).map { _ in
                pieces.randomElement(using: &random)!
            }.joined()
            if round % 20 == 0 { source += "\r" }  // now and then a lone CR
            let bytes = Array(source.utf8)
            let table = LineTable(bytes)
            // Mostly places in the text (some inside a character), now and then anywhere.
            func place(_ offset: Int) -> (line: Int, column: Int) {
                if Int.random(in: 0..<10, using: &random) == 0 {
                    return (Int.random(in: -1...8, using: &random), Int.random(in: -1...8, using: &random))
                }
                let line = table.index(of: offset)
                return (line + 1, offset - table.start(of: line) + 1)
            }
            var findings: [Finding] = []
            for index in 0..<Int.random(in: 1...4, using: &random) {
                let edits = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    let start = Int.random(in: 0...bytes.count, using: &random)
                    let end = min(bytes.count, start + Int.random(in: 0...5, using: &random))
                    let (first, last) = (place(start), place(end))
                    return edit(
                        first.line, first.column, last.line, last.column, pieces.randomElement(using: &random)!)
                }
                findings.append(finding(line: index + 1, edits))
            }
            let file = Fixer.fix(findings, in: Array(source.utf8), path: "File.swift")
            applied += file.applied.count
            #expect(String(validating: file.fixed, as: UTF8.self) != nil, "\(source.debugDescription)")
            #expect(file.applied.count + file.skipped.count == findings.count)
            if file.applied.isEmpty { #expect(file.fixed == Array(source.utf8)) }
            #expect(
                rebuild(Array(source.utf8), diff: file.diff) == file.fixed,
                "\(source.debugDescription)\n\(file.diff)")
        }
        #expect(applied > 200, "only \(applied) random fixes fitted their text")
    }

    @Test func crlfFileKeepsItsLineEndings() throws {
        let source = AdoptionTests.leak.replacingOccurrences(of: "\n", with: "\r\n")
        let findings = Auditor.audit(source: source, path: "Poller.swift", language: .swift).findings
        let fixIts = try #require(findings.first?.fixIts)
        #expect(!fixIts.isEmpty)
        let file = Fixer.fix(findings, in: Array(source.utf8), path: "Poller.swift")
        let expected = AdoptionTests().apply(
            Auditor.audit(source: AdoptionTests.leak, path: "Poller.swift", language: .swift).findings[0].fixIts,
            to: AdoptionTests.leak
        ).replacingOccurrences(of: "\n", with: "\r\n")
        #expect(file.fixed == Array(expected.utf8))
        #expect(file.diff.contains("+import TimerKit\r\n+import TimerKitMigration\r\n"))
        #expect(file.diff.contains("-    var timer: Timer?\r\n+    var timer: Ticker?\r\n"))
        // Old Mac line endings (a lone CR), which Swift counts as line breaks: not fixed.
        let mac = Fixer.fix(
            findings, in: Array(AdoptionTests.leak.replacingOccurrences(of: "\n", with: "\r").utf8),
            path: "Poller.swift")
        #expect(mac.applied.isEmpty)
        #expect(mac.skipped.count == 1)
    }

    @Test func diffNamesAreRelativeToTheCurrentDirectory() {
        #expect(Fixer.diffName("Sources/App/Clock.swift", currentDirectory: "/work") == "Sources/App/Clock.swift")
        #expect(Fixer.diffName("./Sources/../Sources/Clock.swift", currentDirectory: "/work") == "Sources/Clock.swift")
        #expect(Fixer.diffName("/work/Sources/Clock.swift", currentDirectory: "/work") == "Sources/Clock.swift")
        #expect(Fixer.diffName("/elsewhere/Clock.swift", currentDirectory: "/work") == "elsewhere/Clock.swift")
        #expect(Fixer.diffName("../other/Clock.swift", currentDirectory: "/work/app") == "work/other/Clock.swift")
    }

    @Test func writeIsAtomicKeepsPermissionsAndFollowsLinks() throws {
        let root = try AdoptionTests().directory(["real.swift": "old\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let real = root.appendingPathComponent("real.swift").path
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: real)
        let link = root.appendingPathComponent("link.swift").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        try Fixer.writeAtomically(Array("new\n".utf8), to: link)
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
        let permissions = try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o640)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["link.swift", "real.swift"])
        #expect(throws: FixWriteError.self) {
            try Fixer.writeAtomically([], to: root.appendingPathComponent("no/such/dir.swift").path)
        }
    }

    /// A local that keeps the timer and is then used as a `Foundation.Timer` would not compile holding a `Ticker`
    /// (the corpus's BlinkingBannerViewController): no fix-it. One only invalidated, or not used, gets it.
    @Test func migrationFixItOnlyForALocalThatCanHoldATicker() throws {
        let blink = """
            import UIKit

            final class Banner: UIViewController {
                func start() {
                    let blink = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in self.view.isHidden.toggle() }
                    USE
                }
            }

            """
        let uses = [
            "RunLoop.current.add(blink, forMode: .common)": false, "blink.tolerance = 0.5": false,
            "timers.append(blink)": false, "blink.invalidate()": true, "print(blink.isValid)": true, "": true,
        ]
        for (use, fixable) in uses {
            let source = blink.replacingOccurrences(of: "USE", with: use)
            let findings = Auditor.audit(source: source, path: "Banner.swift", language: .swift).findings
            let finding = try #require(findings.first { $0.rule == "block-timer-strong-self" }, "\(use)")
            #expect(finding.fixIts.isEmpty == !fixable, "\(use)")
        }
        let typed = blink.replacingOccurrences(of: "let blink = Timer", with: "let blink: Timer = Timer")
            .replacingOccurrences(of: "USE", with: "")
        let findings = Auditor.audit(source: typed, path: "Banner.swift", language: .swift).findings
        #expect(findings.first { $0.rule == "block-timer-strong-self" }?.fixIts.isEmpty == true)
    }

    /// The `Timer?` property becomes `Ticker?` only when every use of it in the file compiles with a `Ticker`.
    @Test func migrationFixItOnlyForAPropertyThatCanHoldATicker() {
        let uses = [
            "timer?.invalidate()": true, "self.timer?.invalidate(); timer = nil": true,
            "if timer?.isValid == true {}": true, "timer!.invalidate()": true,
            "print(timer?.fireDate as Any)": false, "RunLoop.main.add(timer!, forMode: .common)": false,
            "timer = Timer(timeInterval: 1, repeats: true) { _ in }": false, "let other = timer": false,
        ]
        for (use, fixable) in uses {
            let source = AdoptionTests.leak.replacingOccurrences(
                of: "    @objc func poll() {}",
                with: "    @objc func poll() {}\n\n    func stop() {\n        \(use)\n    }")
            let findings = Auditor.audit(source: source, path: "Poller.swift", language: .swift).findings
            let finding = findings.first { $0.rule == "timer-target-retain" }
            #expect(finding != nil, "\(use)")
            #expect(finding?.fixIts.isEmpty == !fixable, "\(use)")
        }
    }

    // MARK: The command

    /// Runs the executable in `directory`; returns its status, standard output and standard error.
    func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = CommandTests.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("fix-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: data, as: UTF8.self),
            (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        )
    }

    static let fixed = """
        import Foundation
        import TimerKit
        import TimerKitMigration

        @MainActor final class Poller {
            var timer: Ticker?

            func start() {
                timer = Timer.scheduledTimer(timeInterval: 2, target: self, action: Poller.poll, repeats: true)
            }

            @objc func poll() {}
        }

        """

    /// A leak with no exact fix-it (the method takes the timer), next to one with.
    static let unfixable = """
        import Foundation

        @MainActor final class Refresher {
            var timer: Timer?

            func start() {
                timer = Timer.scheduledTimer(timeInterval: 2, target: self, selector: #selector(refresh(_:)), userInfo: nil, repeats: true)
            }

            @objc func refresh(_ timer: Timer) {}
        }

        """

    @Test func dryRunPrintsTheDiffAndWriteAppliesItOnce() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CommandTests.executable.path))
        let root = try AdoptionTests().directory([
            "My App/Poller.swift": AdoptionTests.leak, "My App/Refresher.swift": Self.unfixable,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let poller = root.appendingPathComponent("My App/Poller.swift")
        let before = try FileManager.default.attributesOfItem(atPath: poller.path)[.modificationDate] as? Date

        let dry = try run(["--fix", "My App"], in: root)
        #expect(dry.status == 1)
        #expect(dry.output.hasPrefix("--- a/My App/Poller.swift\t\n+++ b/My App/Poller.swift\t\n@@ -1,10 +1,12 @@\n"))
        #expect(!dry.output.contains("Refresher"))
        #expect(dry.errors.contains("Refresher.swift:7:"))
        #expect(dry.errors.contains("(no exact fix-it: left as it is)"))
        #expect(dry.errors.contains("1 fix(es) to apply in 1 file(s)"))
        #expect(try String(contentsOf: poller, encoding: .utf8) == AdoptionTests.leak)
        #expect(try FileManager.default.attributesOfItem(atPath: poller.path)[.modificationDate] as? Date == before)

        // `patch -p1` applies the dry run's diff to the same result as --write.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/patch") {
            let copy = try AdoptionTests().directory(["My App/Poller.swift": AdoptionTests.leak])
            defer { try? FileManager.default.removeItem(at: copy) }
            let patch = Process()
            patch.executableURL = URL(fileURLWithPath: "/usr/bin/patch")
            patch.arguments = ["-p1", "-s"]
            patch.currentDirectoryURL = copy
            let input = Pipe()
            patch.standardInput = input
            try patch.run()
            input.fileHandleForWriting.write(Data(dry.output.utf8))
            try input.fileHandleForWriting.close()
            patch.waitUntilExit()
            #expect(patch.terminationStatus == 0)
            #expect(
                try String(contentsOf: copy.appendingPathComponent("My App/Poller.swift"), encoding: .utf8)
                    == Self.fixed)
        }

        let write = try run(["--fix", "--write", "My App"], in: root)
        #expect(write.status == 1)  // Refresher's warning is left
        #expect(write.output == "My App/Poller.swift:7:55: fixed [timer-target-retain]\n")
        #expect(write.errors.contains("applied 1 fix(es) to 1 file(s)"))
        #expect(try String(contentsOf: poller, encoding: .utf8) == Self.fixed)
        #expect(
            try String(contentsOf: root.appendingPathComponent("My App/Refresher.swift"), encoding: .utf8)
                == Self.unfixable)

        // Idempotent: nothing more to fix; the scan no longer reports the rewritten timer.
        let again = try run(["--fix", "My App"], in: root)
        #expect(again.output.isEmpty)
        #expect(again.status == 1)
        #expect(try run(["--fix", "--fail-on", "none", "My App"], in: root).status == 0)
        #expect(try run(["--fix", "My App/Poller.swift"], in: root).status == 0)
        #expect(try run(["My App/Poller.swift"], in: root).output.isEmpty)
    }

    @Test func suppressionsAndBaselinesAreRespected() throws {
        let suppressed = AdoptionTests.leak.replacingOccurrences(
            of: "        timer = Timer",
            with: "        // timerkit-audit:ignore timer-target-retain\n        timer = Timer")
        let root = try AdoptionTests().directory(["Suppressed.swift": suppressed, "Known.swift": AdoptionTests.leak])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try run(["--write-baseline", "baseline.json", "."], in: root).status == 0)
        let result = try run(["--fix", "--write", "--baseline", "baseline.json", "."], in: root)
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("1 known finding(s) in the baseline not fixed"))
        #expect(try String(contentsOf: root.appendingPathComponent("Suppressed.swift"), encoding: .utf8) == suppressed)
        #expect(
            try String(contentsOf: root.appendingPathComponent("Known.swift"), encoding: .utf8) == AdoptionTests.leak)
        #expect(try run(["--fix", "--disable", "timer-target-retain", "Known.swift"], in: root).status == 0)
    }

    /// The seeds' target–action example: its `invalidate-only-in-deinit` finding has no fix-it of its own but
    /// goes with the timer's fix, so after `--write` nothing is left (the files are scanned again).
    @Test func writeReportsWhatTheRewrittenFilesStillHave() throws {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FixSeeds")
        let countdown = try String(
            contentsOf: seeds.appendingPathComponent("CountdownViewController.swift"), encoding: .utf8)
        let root = try AdoptionTests().directory(["CountdownViewController.swift": countdown])
        defer { try? FileManager.default.removeItem(at: root) }
        let dry = try run(["--fix", "."], in: root)
        #expect(dry.status == 1)
        #expect(dry.errors.contains("[invalidate-only-in-deinit] (no exact fix-it: left as it is)"))
        let write = try run(["--fix", "--write", "."], in: root)
        #expect(write.status == 0)
        #expect(write.errors.contains("applied 1 fix(es) to 1 file(s); 0 skipped; 0 finding(s) left"))
        #expect(try run(["."], in: root).status == 0)
    }

    @Test func exitStatusAndUsage() throws {
        let root = try AdoptionTests().directory(["Poller.swift": AdoptionTests.leak])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try run(["--fix", "--fail-on", "none", "Poller.swift"], in: root).status == 1)  // fixes to apply
        #expect(try run(["--fix", "Poller.swift", "missing.swift"], in: root).status == 2)
        #expect(try run(["--write", "Poller.swift"], in: root).status == 64)
        #expect(try run(["--fix", "--format", "json", "Poller.swift"], in: root).status == 64)
        #expect(try run(["--fix", "--write-baseline", "b.json", "Poller.swift"], in: root).status == 64)
        #expect(
            try String(contentsOf: root.appendingPathComponent("Poller.swift"), encoding: .utf8) == AdoptionTests.leak)
        #expect(try run(["--fix", "--write", "Poller.swift"], in: root).status == 0)
        #expect(try run(["--fix", "Poller.swift"], in: root).status == 0)
    }

    /// A main-actor controller with `count` repeating timers that retain it, every one with an exact fix-it:
    /// target–action and block timers, each kept in its own property (or, with `locals`, each in a local of one
    /// function), a third of them with a stop method.
    static func manyTimers(_ count: Int, locals: Bool = false) -> String {
        var lines = ["import UIKit", "", "final class ManyTimersController: UIViewController {"]
        if locals {
            lines.append("    func startAll() {")
            for index in 0..<count {
                lines.append(
                    "        let blink\(index) = Timer.scheduledTimer(timeInterval: 1, target: self, "
                        + "selector: #selector(tick\(index)), userInfo: nil, repeats: true)")
                if index % 3 == 0 { lines.append("        if stopping { blink\(index).invalidate() }") }
            }
            lines.append("    }")
        } else {
            lines += (0..<count).map { "    var timer\($0): Timer?" }
        }
        for index in 0..<count {
            if !locals {
                lines.append("    func start\(index)() {")
                lines.append(
                    index.isMultiple(of: 2)
                        ? "        timer\(index) = Timer.scheduledTimer(timeInterval: 1, target: self, "
                            + "selector: #selector(tick\(index)), userInfo: nil, repeats: true)"
                        : "        timer\(index) = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in "
                            + "self.tick\(index)() }")
                lines.append("    }")
                if index % 3 == 0 { lines.append("    func stop\(index)() { timer\(index)?.invalidate() }") }
            }
            lines.append("    @objc func tick\(index)() {}")
        }
        return (lines + ["}", ""]).joined(separator: "\n")
    }

    /// The fix-its of a file with many timers read the whole file once per timer (300 timers: 20 s in a debug
    /// build), and those of many locals the whole function once per local. The checks' own token scans now grow
    /// with the file: ten times the timers, about ten times the tokens read (bound 15; once a timer would be
    /// about 100).
    @Test(arguments: [false, true]) func fixItsOfManyTimersInOneFileTakeLinearWork(locals: Bool) {
        func scan(_ count: Int) -> (tokensScanned: Int, fixes: Int) {
            let source = Self.manyTimers(count, locals: locals)
            let tokens = SwiftAnalyzer.analyzeCountingScans(source: source, path: "Many.swift").tokensScanned
            let findings = Auditor.audit(source: source, path: "Many.swift", language: .swift).findings
            return (tokens, findings.filter { !$0.fixIts.isEmpty }.count)
        }
        let small = scan(30)
        let large = scan(300)
        #expect(small.fixes == 30)
        #expect(large.fixes == 300)
        #expect(large.tokensScanned <= 15 * small.tokensScanned)
    }
}
