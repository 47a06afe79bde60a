import Foundation
import Testing

@testable import AuditCore

struct OutputTests {
    static let report = AuditReport(
        findings: [
            Finding(
                path: "Sources/My App/Clock.swift", line: 12, column: 5, rule: Rule.timerTargetRetain.id,
                severity: .warning, message: "repeating timer retains its target", fix: "use Ticker.schedule"),
            Finding(
                path: "Feed.m", line: 3, column: 1, rule: Rule.defaultModeInScrollView.id, severity: .note,
                message: "default mode", fix: "common modes"),
        ],
        diagnostics: [FileDiagnostic(path: "blob.m", message: "binary file (contains NUL bytes); skipped")],
        filesScanned: 3)

    @Test func compilerFormatIsOneDiagnosticLinePerFinding() throws {
        let lines = OutputFormat.compiler.render(Self.report).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let pattern = try Regex(#"^[^:]+:\d+:\d+: (warning|note): .+; fix: .+ \[[a-z-]+\]$"#)
        for line in lines { #expect(line.wholeMatch(of: pattern) != nil, "\(line)") }
        #expect(lines[0].hasPrefix("Sources/My App/Clock.swift:12:5: warning: "))
        #expect(lines[0].hasSuffix("[timer-target-retain]"))
        #expect(lines[1].hasPrefix("Feed.m:3:1: note: "))
    }

    @Test func jsonDecodesBackToTheReport() throws {
        let text = OutputFormat.json.render(Self.report)
        let document = try JSONDecoder().decode(JSONOutput.Document.self, from: Data(text.utf8))
        #expect(document.tool == "timerkit-audit")
        #expect(document.filesScanned == 3)
        #expect(document.findings == Self.report.findings)
        #expect(document.diagnostics == Self.report.diagnostics)
    }

    @Test func sarifIsVersion210WithRulesResultsAndNotifications() throws {
        let text = OutputFormat.sarif.render(Self.report)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object?["$schema"] as? String == SARIFOutput.schema)
        let log = try JSONDecoder().decode(SARIFOutput.Log.self, from: Data(text.utf8))
        #expect(log.version == "2.1.0")
        let run = try #require(log.runs.first)
        #expect(run.tool.driver.name == "timerkit-audit")
        #expect(run.tool.driver.rules.map(\.id) == Rule.allCases.map(\.id))
        #expect(run.results.count == 2)
        for result in run.results {
            #expect(run.tool.driver.rules[result.ruleIndex].id == result.ruleId)
        }
        #expect(run.results[0].level == "warning")
        #expect(run.results[1].level == "note")
        #expect(run.results[0].locations[0].physicalLocation.artifactLocation.uri == "Sources/My%20App/Clock.swift")
        #expect(run.results[0].locations[0].physicalLocation.region?.startLine == 12)
        #expect(run.invocations[0].toolExecutionNotifications.count == 1)
    }

    @Test func exitStatusFollowsTheThreshold() {
        let warning = Self.report
        var noteOnly = Self.report
        noteOnly.findings.removeAll { $0.severity == .warning }
        var clean = Self.report
        clean.findings = []
        #expect(warning.exitStatus(failOn: .warning) == 1)
        #expect(noteOnly.exitStatus(failOn: .warning) == 0)
        #expect(noteOnly.exitStatus(failOn: .note) == 1)
        #expect(warning.exitStatus(failOn: nil) == 0)
        #expect(clean.exitStatus(failOn: .note) == 0)
        var missing = clean
        missing.missingPaths = ["nowhere"]
        #expect(missing.exitStatus(failOn: nil) == 2)
    }

    /// A missing PATH is not only on standard error: JSON and SARIF carry it as a diagnostic too.
    @Test func jsonAndSarifIncludeMissingPaths() throws {
        var report = Self.report
        report.missingPaths = ["nowhere/App"]
        let document = try JSONDecoder().decode(
            JSONOutput.Document.self, from: Data(OutputFormat.json.render(report).utf8))
        #expect(document.diagnostics.first == FileDiagnostic(path: "nowhere/App", message: "no such file or directory"))
        #expect(document.diagnostics.count == 2)
        let log = try JSONDecoder().decode(SARIFOutput.Log.self, from: Data(OutputFormat.sarif.render(report).utf8))
        let notifications = try #require(log.runs.first?.invocations.first?.toolExecutionNotifications)
        #expect(notifications.count == 2)
        #expect(notifications.first?.message.text == "no such file or directory")
    }
}
