/// How much a finding matters. `note` is informational (the compiler's `note:`); `warning` is a leak.
public enum Severity: String, Codable, Sendable, Comparable, CaseIterable {
    /// Informational: behaviour the author probably did not intend, not a leak.
    case note
    /// A retain cycle, a leak or a crash.
    case warning

    /// Notes are less severe than warnings.
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        }
    }
}

/// The language of a scanned file; it decides which fix a finding names.
public enum SourceLanguage: String, Codable, Sendable, Hashable {
    /// A `.swift` file.
    case swift
    /// An Objective-C `.m`, `.mm` or `.h` file.
    case objectiveC = "objective-c"
}

/// One problem found at one place.
public struct Finding: Codable, Sendable, Hashable {
    /// The file, as it was named on the command line or found below a named directory.
    public var path: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in UTF-8 bytes like the compiler's.
    public var column: Int
    /// The rule's id, for example `timer-target-retain`.
    public var rule: String
    /// The rule's severity.
    public var severity: Severity
    /// What leaks and why.
    public var message: String
    /// The change that removes the problem: a TimerKit call or the correct weak pattern.
    public var fix: String
    /// A line-independent fingerprint: the rule, the text of the finding's line (spaces collapsed) and which
    /// occurrence of that text it is in the file. Baselines match findings by rule, path and fingerprint.
    public var fingerprint: String = ""
    /// Exact edits that apply the fix, when one exists (empty otherwise).
    public var fixIts: [FixIt] = []

    /// Creates a finding.
    public init(
        path: String, line: Int, column: Int, rule: String, severity: Severity, message: String, fix: String
    ) {
        self.path = path
        self.line = line
        self.column = column
        self.rule = rule
        self.severity = severity
        self.message = message
        self.fix = fix
    }

    /// Orders findings by path, line, column and rule, so that output does not depend on scheduling.
    public static func ordered(_ lhs: Finding, _ rhs: Finding) -> Bool {
        if lhs.path != rhs.path { return lhs.path < rhs.path }
        if lhs.line != rhs.line { return lhs.line < rhs.line }
        if lhs.column != rhs.column { return lhs.column < rhs.column }
        return lhs.rule < rhs.rule
    }
}

/// One exact edit: replace the text between two places of the finding's file (both 1-based, columns in
/// UTF-8 bytes, the end exclusive; equal places insert).
public struct FixIt: Codable, Sendable, Hashable {
    /// The first line of the replaced text.
    public var line: Int
    /// The first column of the replaced text.
    public var column: Int
    /// The line where the replaced text ends.
    public var endLine: Int
    /// The column just after the replaced text.
    public var endColumn: Int
    /// The new text.
    public var replacement: String

    /// Creates an edit.
    public init(line: Int, column: Int, endLine: Int, endColumn: Int, replacement: String) {
        self.line = line
        self.column = column
        self.endLine = endLine
        self.endColumn = endColumn
        self.replacement = replacement
    }
}

/// A file the scan could not (fully) read: binary, not UTF-8, unreadable, or malformed source.
/// The scan goes on; diagnostics do not change the exit status.
public struct FileDiagnostic: Codable, Sendable, Hashable {
    /// The file.
    public var path: String
    /// 1-based line when the problem has a place, otherwise nil.
    public var line: Int?
    /// What went wrong and what the scan did about it.
    public var message: String

    /// Creates a diagnostic.
    public init(path: String, line: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }
}
