import Testing

@testable import AuditCore

struct SuppressionTests {
    static let leak =
        "[NSTimer scheduledTimerWithTimeInterval:1 target:self selector:@selector(tick) userInfo:nil repeats:YES];"

    func findings(_ body: String) -> [Finding] {
        let source = "@implementation Clock\n- (void)start {\n\(body)\n}\n@end\n"
        return Auditor.audit(source: source, path: "Clock.m", language: .objectiveC).findings
    }

    @Test func unsuppressedLeakIsFound() {
        #expect(findings(Self.leak).map(\.rule) == ["timer-target-retain"])
    }

    @Test func commentOnTheSameLineSilencesTheNamedRule() {
        #expect(findings(Self.leak + " // timerkit-audit:ignore timer-target-retain").isEmpty)
    }

    @Test func commentOnTheLineBeforeSilencesTheNextLine() {
        #expect(findings("// timerkit-audit:ignore timer-target-retain\n" + Self.leak).isEmpty)
        #expect(findings("/* timerkit-audit:ignore */\n" + Self.leak).isEmpty)
    }

    @Test func bareCommentSilencesEveryRule() {
        #expect(findings(Self.leak + " // timerkit-audit:ignore").isEmpty)
    }

    @Test func commentNamingAnotherRuleDoesNotSilence() {
        #expect(findings(Self.leak + " // timerkit-audit:ignore block-timer-strong-self").count == 1)
    }

    @Test func commentTwoLinesAboveDoesNotSilence() {
        #expect(findings("// timerkit-audit:ignore\n\n" + Self.leak).count == 1)
    }

    @Test func swiftCommentsWork() {
        let source = """
            final class Clock {
                var timer: Timer?
                func start() {
                    // timerkit-audit:ignore block-timer-strong-self, timer-target-retain
                    timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in self.tick() }
                    timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in self.tick() }
                }
                func tick() {}
                func stop() { timer?.invalidate() }
            }
            """
        let found = Auditor.audit(source: source, path: "Clock.swift", language: .swift).findings
        #expect(found.map(\.line) == [6])
    }

    @Test func disabledRulesAreNotReported() {
        let source = "@implementation Clock\n- (void)start {\n\(Self.leak)\n}\n@end\n"
        let found = Auditor.audit(
            source: source, path: "Clock.m", language: .objectiveC, disabledRules: ["timer-target-retain"])
        #expect(found.findings.isEmpty)
    }
}
