import Foundation

/// SARIF 2.1.0 (the OASIS static-analysis results format), with one run, every rule described under
/// `tool.driver.rules`, and file diagnostics as `toolExecutionNotifications`.
public enum SARIFOutput {
    /// The top-level SARIF log.
    public struct Log: Codable, Sendable {
        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version
            case runs
        }

        /// The schema's URI.
        public var schema: String
        /// Always `2.1.0`.
        public var version: String
        /// One run.
        public var runs: [Run]
    }

    /// One run of the tool.
    public struct Run: Codable, Sendable {
        /// The tool and its rules.
        public var tool: Tool
        /// Whether the run completed, and its notifications.
        public var invocations: [Invocation]
        /// The findings.
        public var results: [Result]
    }

    /// The tool.
    public struct Tool: Codable, Sendable {
        /// The driver.
        public var driver: Driver
    }

    /// The tool's driver: name, version, rules.
    public struct Driver: Codable, Sendable {
        /// `timerkit-audit`.
        public var name: String
        /// The tool's version.
        public var version: String
        /// The same version, as code scanning reads it.
        public var semanticVersion: String
        /// Where the rules are described.
        public var informationUri: String
        /// Every rule the tool checks.
        public var rules: [ReportingDescriptor]
    }

    /// A rule.
    public struct ReportingDescriptor: Codable, Sendable {
        /// The rule's id.
        public var id: String
        /// One line about the rule.
        public var shortDescription: Message
        /// The same line (code scanning shows it on the alert).
        public var fullDescription: Message
        /// How the rule's fixes read.
        public var help: Message
        /// The rule's default level.
        public var defaultConfiguration: Configuration
    }

    /// A rule's default configuration.
    public struct Configuration: Codable, Sendable {
        /// `warning` or `note`.
        public var level: String
    }

    /// Text.
    public struct Message: Codable, Sendable {
        /// The text.
        public var text: String
    }

    /// The invocation.
    public struct Invocation: Codable, Sendable {
        /// Always true: diagnostics do not stop the scan.
        public var executionSuccessful: Bool
        /// Files skipped or parsed incompletely.
        public var toolExecutionNotifications: [Notification]
    }

    /// A file diagnostic.
    public struct Notification: Codable, Sendable {
        /// `warning`.
        public var level: String
        /// What went wrong.
        public var message: Message
        /// The file.
        public var locations: [Location]
    }

    /// A finding.
    public struct Result: Codable, Sendable {
        /// The rule's id.
        public var ruleId: String
        /// The rule's index in `tool.driver.rules`.
        public var ruleIndex: Int
        /// `warning` or `note`.
        public var level: String
        /// The message and the fix.
        public var message: Message
        /// Where.
        public var locations: [Location]
        /// `timerkitAudit/v1` → the finding's line-independent fingerprint, so that code scanning follows an
        /// alert when code above it moves.
        public var partialFingerprints: [String: String]
        /// The exact edits, when the fix has them.
        public var fixes: [Fix]?
    }

    /// A fix: edits to one file.
    public struct Fix: Codable, Sendable {
        /// What the fix does.
        public var description: Message
        /// The edits.
        public var artifactChanges: [ArtifactChange]
    }

    /// The edits to one file.
    public struct ArtifactChange: Codable, Sendable {
        /// The file.
        public var artifactLocation: ArtifactLocation
        /// The edits.
        public var replacements: [Replacement]
    }

    /// One edit: the region replaced and the new text.
    public struct Replacement: Codable, Sendable {
        /// The replaced region (end column exclusive; an empty region inserts).
        public var deletedRegion: Region
        /// The new text.
        public var insertedContent: Message?
    }

    /// A location.
    public struct Location: Codable, Sendable {
        /// The file and region.
        public var physicalLocation: PhysicalLocation
    }

    /// A file and a region of it.
    public struct PhysicalLocation: Codable, Sendable {
        /// The file.
        public var artifactLocation: ArtifactLocation
        /// The line and column, when known.
        public var region: Region?
    }

    /// A file.
    public struct ArtifactLocation: Codable, Sendable {
        /// The path, as a relative or absolute URI reference.
        public var uri: String
    }

    /// A line and column (1-based; columns count UTF-8 bytes, as the compiler's do).
    public struct Region: Codable, Sendable {
        /// The line.
        public var startLine: Int
        /// The column.
        public var startColumn: Int?
        /// The last line, for an edit's region.
        public var endLine: Int? = nil
        /// The column after the region, for an edit's region.
        public var endColumn: Int? = nil
    }

    static let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    /// The README of the tool, in the repository that ships it.
    static let informationUri = "https://github.com/timerkit/TimerKit/blob/main/Audit/README.md"

    private static func fix(_ finding: Finding) -> Fix {
        Fix(
            description: Message(text: finding.fix),
            artifactChanges: [
                ArtifactChange(
                    artifactLocation: ArtifactLocation(uri: uri(finding.path)),
                    replacements: finding.fixIts.map {
                        Replacement(
                            deletedRegion: Region(
                                startLine: $0.line, startColumn: $0.column, endLine: $0.endLine, endColumn: $0.endColumn
                            ),
                            insertedContent: Message(text: $0.replacement))
                    })
            ])
    }

    /// The SARIF log for `report`.
    public static func log(_ report: AuditReport) -> Log {
        let rules = Rule.allCases
        let descriptors = rules.map {
            ReportingDescriptor(
                id: $0.id, shortDescription: Message(text: $0.summary), fullDescription: Message(text: $0.summary),
                help: Message(text: "Each result's message ends with the fix for its site. See \(informationUri)."),
                defaultConfiguration: Configuration(level: $0.severity.rawValue))
        }
        let results = report.findings.map { finding in
            Result(
                ruleId: finding.rule, ruleIndex: rules.firstIndex { $0.id == finding.rule } ?? -1,
                level: finding.severity.rawValue,
                message: Message(text: "\(finding.message). Fix: \(finding.fix)"),
                locations: [location(finding.path, line: finding.line, column: finding.column)],
                partialFingerprints: ["timerkitAudit/v1": finding.fingerprint],
                fixes: finding.fixIts.isEmpty ? nil : [fix(finding)])
        }
        let notifications = report.pathAndFileDiagnostics.map {
            Notification(
                level: "warning", message: Message(text: $0.message),
                locations: [location($0.path, line: $0.line, column: nil)])
        }
        let run = Run(
            tool: Tool(
                driver: Driver(
                    name: AuditTool.name, version: AuditTool.version, semanticVersion: AuditTool.version,
                    informationUri: informationUri, rules: descriptors)),
            invocations: [Invocation(executionSuccessful: true, toolExecutionNotifications: notifications)],
            results: results)
        return Log(schema: schema, version: "2.1.0", runs: [run])
    }

    /// The SARIF log as pretty-printed JSON.
    public static func render(_ report: AuditReport) -> String {
        JSONOutput.encode(log(report))
    }

    private static func location(_ path: String, line: Int?, column: Int?) -> Location {
        Location(
            physicalLocation: PhysicalLocation(
                artifactLocation: ArtifactLocation(uri: uri(path)),
                region: line.map { Region(startLine: $0, startColumn: column) }))
    }

    /// A relative path stays relative (SARIF resolves it against the run's working directory); spaces and
    /// other characters outside the URI grammar are percent-encoded.
    static func uri(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }
}
