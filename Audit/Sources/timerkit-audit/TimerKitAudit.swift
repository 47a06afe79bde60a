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
            --fix prints a unified diff of the exact fix-its (for `git apply` or `patch -p1`) and changes \
            nothing; --fix --write applies them in place. Findings without an exact fix are listed on standard \
            error and left as they are.
            Exit status: 0 clean; 1 findings at or above --fail-on (with --fix: also fixes to apply; with \
            --fix --write: findings at or above --fail-on left unfixed); 2 a PATH does not exist; 64 a usage \
            error or a baseline file that cannot be read or written; 74 --fix --write could not write a file. \
            Unreadable, binary and non-UTF-8 files are reported on standard error and skipped; they do not \
            change it.
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

    @Flag(
        help:
            "Print a unified diff of the exact fix-its (a dry run: nothing is written); with --write, apply them.")
    var fix = false

    @Flag(help: "With --fix: rewrite the files in place (atomically, one file at a time) instead of printing the diff.")
    var write = false

    @Flag(help: "List the rules and exit.")
    var listRules = false

    func validate() throws {
        if paths.isEmpty && !listRules { throw ValidationError("Give at least one PATH to scan.") }
        let known = Set(Rule.allCases.map(\.id))
        if let unknown = disabled.first(where: { !known.contains($0) }) {
            throw ValidationError("Unknown rule '\(unknown)'; --list-rules shows the rules.")
        }
        if write && !fix { throw ValidationError("--write applies fixes: give it with --fix.") }
        if fix && format != .compiler {
            throw ValidationError("--fix prints a unified diff; --format json or sarif reports without it.")
        }
        if fix && writeBaseline != nil { throw ValidationError("--fix and --write-baseline do not go together.") }
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
        let failOn: Severity? =
            switch failOn {
            case .none: nil
            case .note: .note
            case .warning: .warning
            }
        if fix {
            let status = applyFixes(report, failOn: failOn, known: known)
            if status != 0 { throw ExitCode(status) }
            return
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
        let status = report.exitStatus(failOn: failOn)
        if status != 0 { throw ExitCode(status) }
    }

    /// `--fix`: the diff of the exact fix-its on standard output (dry run), or, with `--write`, the files
    /// rewritten and one `path:line:column: fixed [rule]` line per applied fix; then the paths are scanned again
    /// to list what is left. Skipped fixes and findings without an exact fix go to standard error. Returns the
    /// exit status (see the README's table).
    func applyFixes(_ report: AuditReport, failOn: Severity?, known: Int) -> Int32 {
        var standardError = FileHandle.standardError
        let plan = Fixer.plan(report.findings)
        var left = plan.withoutFix
        var written = 0
        var applied = 0
        var writeFailed = false
        if write {
            for file in plan.files {
                do {
                    try file.write()
                    written += 1
                    applied += file.applied.count
                    for finding in file.applied {
                        print("\(finding.path):\(finding.line):\(finding.column): fixed [\(finding.rule)]")
                    }
                } catch {
                    print("timerkit-audit: \(error); its fixes are not applied", to: &standardError)
                    writeFailed = true
                }
            }
            // What is left is what a scan of the rewritten files finds: a finding that another fix removed
            // (a stop in deinit of a timer that no longer retains self) is not left.
            var after = Auditor.audit(paths: paths, disabledRules: Set(disabled)).findings
            if let baseline, let known = try? Baseline.load(from: baseline) {
                after = known.newFindings(in: after).findings
            }
            left = after
        } else {
            print(plan.diff, terminator: "")
        }
        for skipped in plan.skipped {
            let finding = skipped.finding
            print(
                "\(finding.path):\(finding.line):\(finding.column): note: fix not applied: \(skipped.reason) "
                    + "[\(finding.rule)]", to: &standardError)
        }
        for finding in left where finding.fixIts.isEmpty {
            print("\(CompilerOutput.line(for: finding)) (no exact fix-it: left as it is)", to: &standardError)
        }
        for path in report.missingPaths {
            print("timerkit-audit: \(path): no such file or directory", to: &standardError)
        }
        for diagnostic in report.diagnostics { print(CompilerOutput.line(for: diagnostic), to: &standardError) }
        let baselined = baseline == nil ? "" : "; \(known) known finding(s) in the baseline not fixed"
        let withoutFix = left.filter(\.fixIts.isEmpty).count
        if write {
            print(
                "timerkit-audit: applied \(applied) fix(es) to \(written) file(s); \(plan.skipped.count) skipped; "
                    + "\(left.count) finding(s) left, \(withoutFix) of them without an exact fix\(baselined)",
                to: &standardError)
        } else {
            print(
                "timerkit-audit: \(plan.applied.count) fix(es) to apply in \(plan.files.count) file(s) (dry run: "
                    + "--fix --write applies them); \(plan.skipped.count) skipped; \(withoutFix) finding(s) without "
                    + "an exact fix left as they are\(baselined)", to: &standardError)
        }
        if writeFailed { return 74 }
        if !report.missingPaths.isEmpty { return 2 }
        let remaining = write ? left : report.findings
        let failing = failOn.map { level in remaining.contains { $0.severity >= level } } ?? false
        return failing || (!write && !plan.files.isEmpty) ? 1 : 0
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
