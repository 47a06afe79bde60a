import Foundation

/// The findings a legacy codebase already has, so that a scan reports only new ones. Findings are matched by
/// rule, path and ``Finding/fingerprint`` (which does not contain the line number, so code that moves keeps
/// matching), each baseline entry matching at most one finding.
public struct Baseline: Codable, Sendable, Equatable {
    /// One known finding.
    public struct Entry: Codable, Sendable, Hashable {
        /// The rule's id.
        public var rule: String
        /// The path as the scan printed it (run from the same directory with the same PATH arguments).
        public var path: String
        /// The finding's fingerprint.
        public var fingerprint: String
        /// The line when the baseline was written: for readers only, never matched.
        public var line: Int
    }

    /// Always `timerkit-audit`.
    public var tool: String
    /// The baseline format's version, 1.
    public var version: Int
    /// The known findings, in the report's order.
    public var findings: [Entry]

    /// A baseline that knows `findings`.
    public init(findings: [Finding]) {
        tool = AuditTool.name
        version = 1
        self.findings = findings.map {
            Entry(rule: $0.rule, path: $0.path, fingerprint: $0.fingerprint, line: $0.line)
        }
    }

    /// Reads a baseline written by ``write(to:)``.
    ///
    /// - Throws: ``BaselineError`` when the file cannot be read or is not a timerkit-audit baseline.
    public static func load(from path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BaselineError(message: "baseline \(path) cannot be read")
        }
        guard let baseline = try? JSONDecoder().decode(Baseline.self, from: data), baseline.tool == AuditTool.name,
            baseline.version == 1
        else {
            throw BaselineError(message: "\(path) is not a timerkit-audit baseline (version 1)")
        }
        return baseline
    }

    /// Writes the baseline as pretty-printed JSON (sorted keys, one entry a finding).
    public func write(to path: String) throws {
        let text = JSONOutput.encode(self)
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw BaselineError(message: "baseline \(path) cannot be written: \(error.localizedDescription)")
        }
    }

    /// The findings the baseline does not know, and how many it matched.
    public func newFindings(in findings: [Finding]) -> (findings: [Finding], known: Int) {
        var remaining: [String: Int] = [:]
        for entry in self.findings { remaining[Self.key(entry.rule, entry.path, entry.fingerprint), default: 0] += 1 }
        var result: [Finding] = []
        var known = 0
        for finding in findings {
            let key = Self.key(finding.rule, finding.path, finding.fingerprint)
            if let count = remaining[key], count > 0 {
                remaining[key] = count - 1
                known += 1
            } else {
                result.append(finding)
            }
        }
        return (result, known)
    }

    private static func key(_ rule: String, _ path: String, _ fingerprint: String) -> String {
        rule + "\u{0}" + path + "\u{0}" + fingerprint
    }
}

/// A baseline file that cannot be read, parsed or written.
public struct BaselineError: Error, CustomStringConvertible {
    /// What went wrong, with the path.
    public var message: String

    /// The message.
    public var description: String { message }
}
