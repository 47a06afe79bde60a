import Foundation
import Testing

@testable import AuditCore

/// Every fixture's findings must equal its `// expect: rule[, rule]` annotations exactly (rule and line):
/// true positives must be found, and every other line, including the true negatives, must stay quiet.
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

    struct Expectation: Hashable, Comparable, CustomStringConvertible {
        var line: Int
        var rule: String

        static func < (lhs: Expectation, rhs: Expectation) -> Bool {
            (lhs.line, lhs.rule) < (rhs.line, rhs.rule)
        }

        var description: String { "\(line): \(rule)" }
    }

    static func expectations(in text: String) -> [Expectation] {
        var result: [Expectation] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let marker = line.range(of: "// expect: ") else { continue }
            for rule in line[marker.upperBound...].split(separator: ",") {
                result.append(Expectation(line: offset + 1, rule: rule.trimmingCharacters(in: .whitespaces)))
            }
        }
        return result.sorted()
    }

    @Test(arguments: fixtures)
    func findingsEqualAnnotations(fixture: String) throws {
        let path = Self.directory.appendingPathComponent(fixture).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let expected = Self.expectations(in: text)
        let result = Auditor.auditFile(at: path)
        let actual = result.findings.map { Expectation(line: $0.line, rule: $0.rule) }.sorted()
        #expect(actual == expected, "\(fixture)")
        #expect(result.diagnostics.isEmpty, "\(fixture): \(result.diagnostics)")
        if text.contains("expect-none") { #expect(expected.isEmpty, "\(fixture) is marked expect-none") }
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
            #expect(swiftRules.contains(rule.id), "no Swift fixture expects \(rule.id)")
            #expect(objectiveCRules.contains(rule.id), "no Objective-C fixture expects \(rule.id)")
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
