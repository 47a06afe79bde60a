import Foundation
import Testing

@testable import AuditCore

/// What a team needs to keep the tool in CI: a baseline that hides the findings it already has (also when
/// code moves), exact fix-its, and SARIF that code scanning can follow across commits.
struct AdoptionTests {
    static let leak = """
        import Foundation

        @MainActor final class Poller {
            var timer: Timer?

            func start() {
                timer = Timer.scheduledTimer(timeInterval: 2, target: self, selector: #selector(poll), userInfo: nil, repeats: true)
            }

            @objc func poll() {}
        }

        """

    /// A temporary directory with `files`, removed by the caller.
    func directory(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("audit-adoption-\(UUID().uuidString)")
        for (name, text) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test func baselineHidesKnownFindingsAfterCodeMovesAndReportsNewOnes() throws {
        let root = try directory(["Poller.swift": Self.leak])
        defer { try? FileManager.default.removeItem(at: root) }
        let first = Auditor.audit(paths: [root.path]).findings
        #expect(first.map(\.rule) == ["timer-target-retain"])
        let baseline = Baseline(findings: first)

        // Lines added above the finding: same fingerprint, still known.
        let moved = "// A comment.\n\n" + Self.leak
        try moved.write(to: root.appendingPathComponent("Poller.swift"), atomically: true, encoding: .utf8)
        let second = Auditor.audit(paths: [root.path]).findings
        #expect(second.first?.line == first[0].line + 2)
        #expect(second.first?.fingerprint == first[0].fingerprint)
        #expect(baseline.newFindings(in: second).findings.isEmpty)
        #expect(baseline.newFindings(in: second).known == 1)

        // A second, identical leak in the same file is new: each entry matches one finding.
        let twice = moved.replacingOccurrences(of: "final class Poller", with: "final class Other")
            .replacingOccurrences(
                of: "import Foundation\n", with: "")
        try (moved + twice).write(to: root.appendingPathComponent("Poller.swift"), atomically: true, encoding: .utf8)
        let third = Auditor.audit(paths: [root.path]).findings
        #expect(third.count == 2)
        #expect(third[0].fingerprint != third[1].fingerprint)
        #expect(baseline.newFindings(in: third).findings.map(\.line) == [third[1].line])
    }

    @Test func baselineFileRoundTripsAndRejectsOtherFiles() throws {
        let root = try directory(["Poller.swift": Self.leak, "not-a-baseline.json": "{\"tool\": \"other\"}"])
        defer { try? FileManager.default.removeItem(at: root) }
        let findings = Auditor.audit(paths: [root.appendingPathComponent("Poller.swift").path]).findings
        let file = root.appendingPathComponent("baseline.json").path
        try Baseline(findings: findings).write(to: file)
        #expect(try Baseline.load(from: file) == Baseline(findings: findings))
        #expect(throws: BaselineError.self) { try Baseline.load(from: root.appendingPathComponent("none.json").path) }
        #expect(throws: BaselineError.self) {
            try Baseline.load(from: root.appendingPathComponent("not-a-baseline.json").path)
        }
    }

    @Test func commandWritesAndUsesABaseline() throws {
        let root = try directory(["Poller.swift": Self.leak])
        defer { try? FileManager.default.removeItem(at: root) }
        let baseline = root.appendingPathComponent("audit-baseline.json").path
        let source = root.appendingPathComponent("Poller.swift").path
        let commands = CommandTests()
        #expect(try commands.run(["--write-baseline", baseline, source]).status == 0)
        let known = try commands.run(["--baseline", baseline, source])
        #expect(known.status == 0)
        #expect(known.output.isEmpty)
        try (Self.leak + Self.leak.replacingOccurrences(of: "Poller", with: "Refresher")).write(
            toFile: source, atomically: true, encoding: .utf8)
        let fresh = try commands.run(["--baseline", baseline, source])
        #expect(fresh.status == 1)
        #expect(fresh.output.contains("Poller.swift:18:"))
        #expect(!fresh.output.contains("Poller.swift:7:"))
        #expect(
            try commands.run(["--baseline", root.appendingPathComponent("missing.json").path, source]).status == 64)
    }

    /// Applies edits (sorted, not overlapping) to `text`, columns counted in UTF-8 bytes.
    func apply(_ edits: [FixIt], to text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        for edit in edits.sorted(by: { ($0.line, $0.column) > ($1.line, $1.column) }) {
            let start = edit.column - 1
            let end = edit.endColumn - 1
            let head = Array(lines[edit.line - 1][..<start])
            let tail = Array(lines[edit.endLine - 1][end...])
            let middle = String(decoding: head + Array(edit.replacement.utf8) + tail, as: UTF8.self)
            let replaced = middle.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
            lines.replaceSubrange((edit.line - 1)...(edit.endLine - 1), with: replaced)
        }
        return lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
    }

    @Test func selectorTimerGetsTheMigrationFixIt() throws {
        let result = Auditor.audit(source: Self.leak, path: "Poller.swift", language: .swift)
        let finding = try #require(result.findings.first)
        let fixed = apply(finding.fixIts, to: Self.leak)
        #expect(
            fixed == """
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

                """)
        let line = CompilerOutput.fixItLine(finding.fixIts[0], path: "Poller.swift")
        #expect(line == #"fix-it:"Poller.swift":{2:1-2:1}:"import TimerKit\nimport TimerKitMigration\n""#)
        #expect(CompilerOutput.render([finding]).split(separator: "\n").count == 1 + finding.fixIts.count)
    }

    @Test func noFixItWithoutAnExactEdit() {
        let variants = [
            // userInfo carries state; the method takes the timer; a nonisolated type cannot call the
            // main-actor look-alikes.
            Self.leak.replacingOccurrences(of: "userInfo: nil", with: "userInfo: state"),
            Self.leak.replacingOccurrences(of: "#selector(poll)", with: "#selector(poll(_:))").replacingOccurrences(
                of: "func poll()", with: "func poll(_ timer: Timer)"),
            Self.leak.replacingOccurrences(of: "@MainActor final class Poller {", with: "final class Poller {"),
            Self.leak.replacingOccurrences(of: "var timer: Timer?", with: "var timer: AnyObject?"),
        ]
        for source in variants {
            let findings = Auditor.audit(source: source, path: "Poller.swift", language: .swift).findings
            #expect(findings.count == 1)
            #expect(findings.first?.fixIts.isEmpty == true, "\(source)")
        }
    }

    static let blockLeak = """
        import Foundation

        @MainActor final class Ticker2 {
            var timer: Timer!

            func start() {
                timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { t in
                    self.count += 1
                    self.render(self.count)
                }
            }
        }

        """

    @Test func blockTimerGetsTheOwnerFixIt() throws {
        let result = Auditor.audit(source: Self.blockLeak, path: "Ticker2.swift", language: .swift)
        let finding = try #require(result.findings.first)
        #expect(finding.rule == "block-timer-strong-self")
        #expect(
            apply(finding.fixIts, to: Self.blockLeak) == """
                import Foundation
                import TimerKit
                import TimerKitMigration

                @MainActor final class Ticker2 {
                    var timer: Ticker!

                    func start() {
                        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true, owner: self) { owner, t in
                            owner.count += 1
                            owner.render(owner.count)
                        }
                    }
                }

                """)
    }

    @Test func noOwnerFixItWithoutAnExactEdit() {
        let variants = [
            // A capture list, a closure inside the block, a nonisolated type, Foundation's initializer.
            Self.blockLeak.replacingOccurrences(of: "{ t in", with: "{ [self] t in"),
            Self.blockLeak.replacingOccurrences(
                of: "self.render(self.count)", with: "DispatchQueue.main.async { self.render(self.count) }"),
            Self.blockLeak.replacingOccurrences(of: "@MainActor final class Ticker2 {", with: "final class Ticker2 {"),
            Self.blockLeak.replacingOccurrences(
                of: "Timer.scheduledTimer(withTimeInterval", with: "Timer(timeInterval"),
        ]
        for source in variants {
            let findings = Auditor.audit(source: source, path: "Ticker2.swift", language: .swift).findings
            #expect(findings.count == 1, "\(source)")
            #expect(findings.first?.fixIts.isEmpty == true, "\(source)")
        }
    }

    @Test func sarifCarriesFingerprintsAndFixes() throws {
        let result = Auditor.audit(source: Self.leak, path: "Sources/Poller.swift", language: .swift)
        let report = AuditReport(findings: result.findings, diagnostics: [], filesScanned: 1)
        let log = try JSONDecoder().decode(SARIFOutput.Log.self, from: Data(OutputFormat.sarif.render(report).utf8))
        let run = try #require(log.runs.first)
        #expect(run.tool.driver.informationUri.hasSuffix("Audit/README.md"))
        let sarifResult = try #require(run.results.first)
        #expect(sarifResult.partialFingerprints["timerkitAudit/v1"] == result.findings[0].fingerprint)
        #expect(result.findings[0].fingerprint.count == 16)
        let replacements = try #require(sarifResult.fixes?.first?.artifactChanges.first?.replacements)
        #expect(replacements.count == result.findings[0].fixIts.count)
        #expect(replacements.contains { $0.insertedContent?.text == "action: Poller.poll" })
    }
}
