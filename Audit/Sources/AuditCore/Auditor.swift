import Foundation

/// What a scan found, in a deterministic order (path, line, column, rule).
public struct AuditReport: Sendable {
    /// The findings left after suppression comments and disabled rules.
    public var findings: [Finding]
    /// Files that could not be read or parsed completely; the scan went on past them.
    public var diagnostics: [FileDiagnostic]
    /// How many files were read.
    public var filesScanned: Int
    /// Paths named on the command line that do not exist.
    public var missingPaths: [String]

    /// Creates a report.
    public init(findings: [Finding], diagnostics: [FileDiagnostic], filesScanned: Int, missingPaths: [String] = []) {
        self.findings = findings
        self.diagnostics = diagnostics
        self.filesScanned = filesScanned
        self.missingPaths = missingPaths
    }

    /// The diagnostics with one for each missing path first: what JSON and SARIF report.
    public var pathAndFileDiagnostics: [FileDiagnostic] {
        missingPaths.map { FileDiagnostic(path: $0, message: "no such file or directory") } + diagnostics
    }

    /// The process's exit status: 2 when a named path does not exist, 1 when a finding is at least as
    /// severe as `failOn` (nil: never), 0 otherwise. File diagnostics do not change it.
    public func exitStatus(failOn: Severity?) -> Int32 {
        if !missingPaths.isEmpty { return 2 }
        guard let failOn else { return 0 }
        return findings.contains { $0.severity >= failOn } ? 1 : 0
    }
}

/// The findings and diagnostics of one file.
public struct FileResult: Sendable {
    /// The findings, suppression comments already applied.
    public var findings: [Finding] = []
    /// Problems reading or parsing the file.
    public var diagnostics: [FileDiagnostic] = []
    /// What the file adds to the scan's index (timers, stops, calls, types).
    var facts = FileFacts()
    /// The file's text, for suppressions and fingerprints once the whole scan is decided.
    var source = ""
    var language: SourceLanguage = .swift
    var path = ""

    /// Creates an empty result.
    public init() {}
}

/// Runs the analyzers over files. It only ever reads what it scans: files are opened read-only and never
/// executed, compiled or written.
public enum Auditor {
    /// Files larger than this are skipped with a diagnostic (generated or data files, not source).
    public static let maximumFileSize = 8 << 20

    /// Words without which no rule can match and nothing is stopped: Swift files without any of them are not
    /// parsed, only scanned for the methods they call (a stop in another file counts where it is called).
    static let keywords = [
        "Timer", "DisplayLink", "displayLink", "dispatch_", "DispatchSource", "setEventHandler", "sink", "assign(",
        "invalidate", ".cancel()",
    ]

    /// Scans `paths` (files and directories) with every rule not in `disabledRules`.
    ///
    /// Files are analysed in parallel over the machine's cores; then the whole scan's index decides the
    /// findings that depend on other files. The report is sorted, so its order does not depend on scheduling.
    public static func audit(paths: [String], disabledRules: Set<String> = []) -> AuditReport {
        let (files, missing, unreadable) = FileWalker.scan(paths)
        let results = ResultSlots(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            results.store(readAndAnalyze(at: files[index]), at: index)
        }
        var findings: [Finding] = []
        var diagnostics = unreadable.map {
            FileDiagnostic(path: $0, message: "directory cannot be read; skipped with everything below it")
        }
        for result in decide(results.all(), disabledRules: disabledRules) {
            findings += result.findings
            diagnostics += result.diagnostics
        }
        findings.sort(by: Finding.ordered)
        return AuditReport(
            findings: findings, diagnostics: diagnostics, filesScanned: files.count, missingPaths: missing)
    }

    /// Reads and analyses one file alone (a scan of one file); unreadable, binary, non-UTF-8 and oversized
    /// files give a diagnostic.
    public static func auditFile(at path: String, disabledRules: Set<String> = []) -> FileResult {
        decide([readAndAnalyze(at: path)], disabledRules: disabledRules)[0]
    }

    static func readAndAnalyze(at path: String) -> FileResult {
        var result = FileResult()
        result.path = path
        guard let language = FileWalker.language(of: path) else {
            result.diagnostics.append(
                FileDiagnostic(path: path, message: "not a Swift or Objective-C file (.swift, .m, .mm, .h); skipped"))
            return result
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            result.diagnostics.append(FileDiagnostic(path: path, message: "cannot be read; skipped"))
            return result
        }
        if data.count > maximumFileSize {
            result.diagnostics.append(
                FileDiagnostic(path: path, message: "larger than \(maximumFileSize >> 20) MiB; skipped"))
            return result
        }
        if data.contains(0) {
            result.diagnostics.append(FileDiagnostic(path: path, message: "binary file (contains NUL bytes); skipped"))
            return result
        }
        guard isValidUTF8(data) else {
            result.diagnostics.append(FileDiagnostic(path: path, message: "not valid UTF-8; skipped"))
            return result
        }
        return analyze(source: String(decoding: data, as: UTF8.self), path: path, language: language)
    }

    /// Analyses source text that is already in memory as a scan of one file (also used by tests).
    public static func audit(
        source: String, path: String, language: SourceLanguage, disabledRules: Set<String> = []
    ) -> FileResult {
        decide([analyze(source: source, path: path, language: language)], disabledRules: disabledRules)[0]
    }

    /// The first pass over one file: its immediate findings and what it adds to the index.
    static func analyze(source: String, path: String, language: SourceLanguage) -> FileResult {
        var result: FileResult
        if language == .swift, !keywords.contains(where: { source.contains($0) }) {
            result = FileResult()
            result.facts = LightCallScan.swiftFacts(source, path: path)
        } else if let line = NestingDepth.tooDeep(source, language: language) {
            result = FileResult()
            result.diagnostics.append(
                FileDiagnostic(path: path, line: line, message: "nesting too deep to analyse; skipped"))
        } else {
            switch language {
            case .swift: result = SwiftAnalyzer.analyze(source: source, path: path)
            case .objectiveC: result = ObjCAnalyzer.analyze(source: source, path: path)
            }
        }
        result.facts.language = language
        result.source = source
        result.language = language
        result.path = path
        return result
    }

    /// The second pass: the index over every file decides the held-back findings; then suppression comments
    /// and disabled rules apply, and each finding gets its fingerprint (files in parallel, as in the first pass).
    static func decide(_ results: [FileResult], disabledRules: Set<String>) -> [FileResult] {
        let results = reanalyzingWrapperClients(results)
        var decided = results
        var byPath: [String: Int] = [:]
        for (index, result) in results.enumerated() { byPath[result.path] = index }
        for finding in ProjectIndex(results.map(\.facts)).findings() {
            guard let index = byPath[finding.path] else { continue }
            decided[index].findings.append(finding)
        }
        let slots = ResultSlots(count: decided.count)
        DispatchQueue.concurrentPerform(iterations: decided.count) { [decided] index in
            var result = decided[index]
            let suppressions = Suppressions(text: result.source, language: result.language)
            result.findings.removeAll { disabledRules.contains($0.rule) || suppressions.silences($0) }
            result.findings.sort(by: Finding.ordered)
            Fingerprint.assign(to: &result.findings, source: result.source)
            result.source = ""
            result.facts = FileFacts()
            slots.store(result, at: index)
        }
        return slots.all()
    }

    static func isValidUTF8(_ data: Data) -> Bool {
        var iterator = data.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}

/// One slot per file for the parallel scan.
///
/// Invariant: `slots` is read and written only while `lock` is held, so the box may cross threads.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [FileResult]

    init(count: Int) { slots = Array(repeating: FileResult(), count: count) }

    func store(_ result: FileResult, at index: Int) {
        lock.lock()
        slots[index] = result
        lock.unlock()
    }

    func all() -> [FileResult] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
