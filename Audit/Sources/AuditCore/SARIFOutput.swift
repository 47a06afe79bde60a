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
        /// Every rule the tool checks.
        public var rules: [ReportingDescriptor]
    }

    /// A rule.
    public struct ReportingDescriptor: Codable, Sendable {
        /// The rule's id.
        public var id: String
        /// One line about the rule.
        public var shortDescription: Message
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
    }

    static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

    /// The SARIF log for `report`.
    public static func log(_ report: AuditReport) -> Log {
        let rules = Rule.allCases
        let descriptors = rules.map {
            ReportingDescriptor(
                id: $0.id, shortDescription: Message(text: $0.summary),
                defaultConfiguration: Configuration(level: $0.severity.rawValue))
        }
        let results = report.findings.map { finding in
            Result(
                ruleId: finding.rule, ruleIndex: rules.firstIndex { $0.id == finding.rule } ?? -1,
                level: finding.severity.rawValue,
                message: Message(text: "\(finding.message). Fix: \(finding.fix)"),
                locations: [location(finding.path, line: finding.line, column: finding.column)])
        }
        let notifications = report.pathAndFileDiagnostics.map {
            Notification(
                level: "warning", message: Message(text: $0.message),
                locations: [location($0.path, line: $0.line, column: nil)])
        }
        let run = Run(
            tool: Tool(driver: Driver(name: AuditTool.name, version: AuditTool.version, rules: descriptors)),
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
