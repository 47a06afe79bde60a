import Foundation

/// How the report is printed.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// `path:line:column: warning: message [rule]`, one line a finding, as the compiler prints
    /// diagnostics (Xcode and editors pick these lines up).
    case compiler
    /// One JSON object: findings, diagnostics and the number of files scanned.
    case json
    /// SARIF 2.1.0, for code-scanning services.
    case sarif

    /// The report as text for standard output.
    public func render(_ report: AuditReport) -> String {
        switch self {
        case .compiler: CompilerOutput.render(report.findings)
        case .json: JSONOutput.render(report)
        case .sarif: SARIFOutput.render(report)
        }
    }
}

/// The compiler's diagnostic format.
public enum CompilerOutput {
    /// One line per finding: `path:line:column: warning: message; fix: … [rule]` (`note:` for notes), then
    /// one line per exact edit in clang's parseable fix-it form, `fix-it:"path":{line:column-line:column}:"text"`.
    public static func render(_ findings: [Finding]) -> String {
        findings.map { finding in
            line(for: finding) + "\n" + finding.fixIts.map { fixItLine($0, path: finding.path) + "\n" }.joined()
        }.joined()
    }

    /// An edit as clang prints it with `-fdiagnostics-parseable-fixits` (the end column is exclusive).
    public static func fixItLine(_ fixIt: FixIt, path: String) -> String {
        "fix-it:\"\(escaped(path))\":{\(fixIt.line):\(fixIt.column)-\(fixIt.endLine):\(fixIt.endColumn)}:"
            + "\"\(escaped(fixIt.replacement))\""
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default: result.append(character)
            }
        }
        return result
    }

    /// One finding in the compiler's format.
    public static func line(for finding: Finding) -> String {
        "\(finding.path):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message); "
            + "fix: \(finding.fix) [\(finding.rule)]"
    }

    /// One diagnostic in the compiler's format, for standard error.
    public static func line(for diagnostic: FileDiagnostic) -> String {
        "\(diagnostic.path):\(diagnostic.line ?? 1):1: note: \(diagnostic.message) [timerkit-audit]"
    }
}

/// The JSON report.
public enum JSONOutput {
    /// The document `--format json` prints.
    public struct Document: Codable, Sendable {
        /// Always `timerkit-audit`.
        public var tool: String
        /// The tool's version.
        public var version: String
        /// How many files were read.
        public var filesScanned: Int
        /// The findings, sorted by path, line and column.
        public var findings: [Finding]
        /// Paths that do not exist, directories that cannot be read, files skipped or parsed incompletely.
        public var diagnostics: [FileDiagnostic]
    }

    /// The report as pretty-printed JSON with sorted keys.
    public static func render(_ report: AuditReport) -> String {
        let document = Document(
            tool: AuditTool.name, version: AuditTool.version, filesScanned: report.filesScanned,
            findings: report.findings, diagnostics: report.pathAndFileDiagnostics)
        return encode(document)
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// The tool's name and version, as reports name them.
public enum AuditTool {
    /// The executable's name.
    public static let name = "timerkit-audit"
    /// The tool's version.
    public static let version = "0.1.0"
}
