/// Why a cron expression was refused by ``TickSchedule/cron(_:in:tolerance:missed:)``.
public struct CronExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The expression as given.
    public let expression: String
    /// The field at fault ("minute", "hour", "day of the month", "month", "day of the week"), or
    /// "expression" for the whole.
    public let field: String
    /// What is wrong, in a sentence.
    public let reason: String

    /// "cron "…": <field>: <reason>".
    public var description: String { "cron \"\(expression)\": \(field): \(reason)" }
}

/// Parses the five fields of a cron expression into a ``CalendarRule``.
enum CronExpression {
    private static let fields: [(name: String, range: ClosedRange<Int>)] = [
        ("minute", 0...59), ("hour", 0...23), ("day of the month", 1...31), ("month", 1...12),
        ("day of the week", 0...7),
    ]

    static func parse(_ expression: String) throws(CronExpressionError) -> CalendarRule {
        let parts = expression.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard parts.count == 5 else {
            throw CronExpressionError(
                expression: expression, field: "expression",
                reason: "has \(parts.count) fields; expected 5 (minute hour day-of-month month day-of-week)")
        }
        var values: [[Int]] = []
        for (part, field) in zip(parts, fields) {
            do {
                values.append(try parseField(part, range: field.range))
            } catch let reason {
                throw CronExpressionError(expression: expression, field: field.name, reason: reason.text)
            }
        }
        let days = parts[2] == "*" ? CalendarRule.allDays : values[2].reduce(UInt32(0)) { $0 | 1 << UInt32($1) }
        let weekdays =
            parts[4] == "*" ? CalendarRule.allWeekdays : values[4].reduce(UInt8(0)) { $0 | 1 << UInt8($1 % 7) }
        let rule = CalendarRule(
            seconds: [0], minutes: values[0], hours: values[1], days: days,
            months: values[3].reduce(UInt16(0)) { $0 | 1 << UInt16($1) }, weekdays: weekdays)
        guard rule.canMatch else {
            throw CronExpressionError(
                expression: expression, field: "expression", reason: "names no day that exists (such as 30 February)")
        }
        return rule
    }

    struct Reason: Error {
        let text: String
    }

    /// One field: `*`, `n`, `a-b`, a step `*/n` or `a-b/n`, or a comma-separated list of those.
    private static func parseField(_ text: String, range: ClosedRange<Int>) throws(Reason) -> [Int] {
        var values: [Int] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = item.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { throw Reason(text: "\"\(item)\" has more than one step") }
            var step = 1
            if pieces.count == 2 {
                guard let parsed = Int(pieces[1]), parsed > 0 else {
                    throw Reason(text: "step \"\(pieces[1])\" is not a positive number")
                }
                step = parsed
            }
            let span: ClosedRange<Int>
            if pieces[0] == "*" {
                span = range
            } else {
                let bounds = pieces[0].split(separator: "-", omittingEmptySubsequences: false)
                guard bounds.count <= 2, let low = Int(bounds[0]), let high = Int(bounds.last!) else {
                    throw Reason(text: "\"\(item)\" is not a number, a range a-b or *")
                }
                guard range.contains(low), range.contains(high) else {
                    throw Reason(text: "\"\(item)\" is out of range \(range.lowerBound)-\(range.upperBound)")
                }
                guard low <= high else { throw Reason(text: "range \"\(pieces[0])\" runs backwards") }
                // `a/n` (a single value with a step) means a to the end of the range, as in Vixie cron.
                span = low...(bounds.count == 1 && pieces.count == 2 ? range.upperBound : high)
            }
            values += stride(from: span.lowerBound, through: span.upperBound, by: step)
        }
        return values
    }
}
