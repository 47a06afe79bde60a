import Foundation
import Testing

@testable import AuditCore

/// Every fixture's findings must equal its `// expect: rule[, rule]` (warnings) and `// expect-note: rule`
/// (notes) annotations exactly (rule, line and severity): true positives must be found, and every other line,
/// including the true negatives, must stay quiet. A file is scanned alone, except the files of a directory
/// under `Project/`, which are scanned together as one project (a stop in one file counts for another).
struct FixtureTests {
    static let directory = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    static let fixtures: [String] = {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String {
            if FileWalker.language(of: name) != nil { names.append(name) }
        }
        return names.sorted()
    }()

    /// The directories under `Project/`, each scanned as one project.
    static let projects: [String] = {
        let root = directory.appendingPathComponent("Project").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { "Project/" + $0 }
    }()

    struct Expectation: Hashable, Comparable, CustomStringConvertible {
        var line: Int
        var rule: String
        var severity = Severity.warning

        static func < (lhs: Expectation, rhs: Expectation) -> Bool {
            (lhs.line, lhs.rule, lhs.severity.rawValue) < (rhs.line, rhs.rule, rhs.severity.rawValue)
        }

        var description: String { "\(line): \(severity == .note ? "note " : "")\(rule)" }
    }

    static func expectations(in text: String) -> [Expectation] {
        var result: [Expectation] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (marker, severity) in [("// expect: ", Severity.warning), ("// expect-note: ", .note)] {
                guard let range = line.range(of: marker) else { continue }
                for rule in line[range.upperBound...].split(separator: ",") {
                    let id = rule.trimmingCharacters(in: .whitespaces)
                    result.append(Expectation(line: offset + 1, rule: id, severity: severity))
                }
            }
        }
        return result.sorted()
    }

    @Test(arguments: fixtures.filter { !$0.hasPrefix("Project/") })
    func findingsEqualAnnotations(fixture: String) throws {
        let path = Self.directory.appendingPathComponent(fixture).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let expected = Self.expectations(in: text)
        let result = Auditor.auditFile(at: path)
        let actual = result.findings.map { Expectation(line: $0.line, rule: $0.rule, severity: $0.severity) }.sorted()
        #expect(actual == expected, "\(fixture)")
        #expect(result.diagnostics.isEmpty, "\(fixture): \(result.diagnostics)")
        if text.contains("expect-none") { #expect(expected.isEmpty, "\(fixture) is marked expect-none") }
    }

    /// A project's files scanned together: each file's findings equal its annotations.
    @Test(arguments: projects)
    func projectFindingsEqualAnnotations(project: String) throws {
        let root = Self.directory.appendingPathComponent(project).path
        let report = Auditor.audit(paths: [root])
        #expect(report.diagnostics.isEmpty, "\(project): \(report.diagnostics)")
        for fixture in Self.fixtures where fixture.hasPrefix(project + "/") {
            let path = Self.directory.appendingPathComponent(fixture).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let actual = report.findings.filter { $0.path == path }.map {
                Expectation(line: $0.line, rule: $0.rule, severity: $0.severity)
            }
            #expect(actual.sorted() == Self.expectations(in: text), "\(fixture)")
        }
    }

    @Test func everySeedHasSwiftAndObjectiveCFixtures() {
        for seed in 0...4 {
            let prefix = String(format: "Seed%03d", seed)
            #expect(Self.fixtures.contains { $0.contains("/" + prefix) && $0.hasSuffix(".m") }, "\(prefix) .m")
            #expect(Self.fixtures.contains { $0.contains(prefix) && $0.hasSuffix(".swift") }, "\(prefix) .swift")
        }
    }

    @Test func everyRuleIsExpectedInSwiftAndObjectiveC() throws {
        var swiftRules: Set<String> = []
        var objectiveCRules: Set<String> = []
        for fixture in Self.fixtures {
            let text = try String(contentsOfFile: Self.directory.appendingPathComponent(fixture).path, encoding: .utf8)
            let rules = Self.expectations(in: text).map(\.rule)
            if fixture.hasSuffix(".swift") { swiftRules.formUnion(rules) } else { objectiveCRules.formUnion(rules) }
        }
        for rule in Rule.allCases {
            if rule.languages.contains(.swift) {
                #expect(swiftRules.contains(rule.id), "no Swift fixture expects \(rule.id)")
            }
            if rule.languages.contains(.objectiveC) {
                #expect(objectiveCRules.contains(rule.id), "no Objective-C fixture expects \(rule.id)")
            }
        }
        #expect(swiftRules.union(objectiveCRules).isSubset(of: Set(Rule.allCases.map(\.id))))
    }

    @Test func everyFindingNamesItsFix() {
        let report = Auditor.audit(paths: [Self.directory.path])
        #expect(report.findings.count > 40)
        for finding in report.findings {
            #expect(!finding.fix.isEmpty && !finding.message.isEmpty)
            let namesFix =
                finding.fix.contains("Ticker.schedule") || finding.fix.contains("FrameSource")
                || finding.fix.contains("weak") || finding.fix.contains("RunLoop") || finding.fix.contains("Common")
                || finding.fix.contains("resume")
            #expect(namesFix, "\(finding.rule): \(finding.fix)")
        }
    }
}
