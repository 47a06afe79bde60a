import ArgumentParser
import AuditCore
import Foundation

/// `timerkit-audit PATH...`: finds timer retain cycles in Swift and Objective-C sources.
@main
struct TimerKitAudit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timerkit-audit",
        abstract: "Find timer retain cycles in Swift and Objective-C sources (.swift, .m, .mm, .h).",
        discussion: """
            Findings print as `path:line:column: warning: message; fix: … [rule]`. Silence one with a comment \
            on its line or the line above: `// timerkit-audit:ignore` (every rule) or \
            `// timerkit-audit:ignore rule-id, other-rule`.
            Exit status: 0 clean; 1 findings at or above --fail-on; 2 a PATH does not exist; 64 a usage error \
            or a baseline file that cannot be read or written. Unreadable, binary and non-UTF-8 files are \
            reported on standard error and skipped; they do not change it.
            """,
        version: AuditTool.version)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case compiler, json, sarif
    }

    enum FailLevel: String, ExpressibleByArgument, CaseIterable {
        case none, note, warning
    }

    @Argument(
        help:
            "Files and directories to scan (directories recursively, skipping hidden folders and Pods, Carthage, DerivedData, node_modules)."
    )
    var paths: [String] = []

    @Option(help: "Output format: compiler, json or sarif.")
    var format: Format = .compiler

    @Option(help: "Exit with status 1 when a finding is at least this severe: none, note or warning.")
    var failOn: FailLevel = .warning

    @Option(name: .customLong("disable"), help: "A rule id not to check; repeat for more.")
    var disabled: [String] = []

    @Option(
        help: ArgumentHelp(
            "Report only findings that this baseline file does not list (matched by rule, path and fingerprint).",
            valueName: "file"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "Write the findings to this baseline file, print nothing else and exit 0 (or 2 when a PATH is missing).",
            valueName: "file"))
    var writeBaseline: String?

    @Flag(help: "List the rules and exit.")
    var listRules = false

    func validate() throws {
        if paths.isEmpty && !listRules { throw ValidationError("Give at least one PATH to scan.") }
        let known = Set(Rule.allCases.map(\.id))
        if let unknown = disabled.first(where: { !known.contains($0) }) {
            throw ValidationError("Unknown rule '\(unknown)'; --list-rules shows the rules.")
        }
    }

    func run() throws {
        if listRules {
            for rule in Rule.allCases { print("\(rule.id) (\(rule.severity.rawValue)): \(rule.summary)") }
            return
        }
        var report = Auditor.audit(paths: paths, disabledRules: Set(disabled))
        var standardError = FileHandle.standardError
        if let writeBaseline {
            do {
                try Baseline(findings: report.findings).write(to: writeBaseline)
            } catch {
                print("timerkit-audit: \(error)", to: &standardError)
                throw ExitCode(64)
            }
            print(
                "timerkit-audit: wrote \(report.findings.count) finding(s) to the baseline \(writeBaseline)",
                to: &standardError)
            if !report.missingPaths.isEmpty { throw ExitCode(2) }
            return
        }
        var known = 0
        if let baseline {
            do {
                (report.findings, known) = try Baseline.load(from: baseline).newFindings(in: report.findings)
            } catch {
                print("timerkit-audit: \(error)", to: &standardError)
                throw ExitCode(64)
            }
        }
        print(Self.output(report, format: format), terminator: "")
        for path in report.missingPaths {
            print("timerkit-audit: \(path): no such file or directory", to: &standardError)
        }
        for diagnostic in report.diagnostics { print(CompilerOutput.line(for: diagnostic), to: &standardError) }
        if format == .compiler {
            let baselined = baseline == nil ? "" : "; \(known) known finding(s) in the baseline not shown"
            print(
                "timerkit-audit: \(report.findings.count) finding(s) in \(report.filesScanned) file(s)\(baselined)",
                to: &standardError)
        }
        let failOn: Severity? =
            switch failOn {
            case .none: nil
            case .note: .note
            case .warning: .warning
            }
        let status = report.exitStatus(failOn: failOn)
        if status != 0 { throw ExitCode(status) }
    }

    static func output(_ report: AuditReport, format: Format) -> String {
        switch format {
        case .compiler: OutputFormat.compiler.render(report)
        case .json: OutputFormat.json.render(report)
        case .sarif: OutputFormat.sarif.render(report)
        }
    }
}

extension FileHandle: @retroactive TextOutputStream {
    /// Writes `string` as UTF-8, so that `print(_:to:)` can write to standard error.
    public func write(_ string: String) {
        write(Data(string.utf8))
    }
}
