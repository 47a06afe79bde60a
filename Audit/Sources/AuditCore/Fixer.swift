import Foundation

/// Applies the exact fix-its of a scan (`--fix`): plans the edits of each file, resolves overlaps, rewrites the
/// text and prints a unified diff. It never writes unless asked (``FileFix/write()``), and then atomically.
///
/// A finding's edits are one fix: all of them are applied, or none. Edits that two fixes share (the
/// `import TimerKitMigration` line, the `Timer?` property both timers are kept in) are applied once. A fix
/// whose edits overlap an edit of a fix applied before it (findings in path, line, column and rule order) is
/// skipped with the reason, and so is one whose edits do not fit the file (the file changed since the scan).
public enum Fixer {
    /// Lines of unchanged context around each change in the diff, as `diff -u` and `git diff` print.
    public static let contextLines = 3

    /// The plan for every file with fix-its among `findings`; `read` returns a file's bytes (nil when it cannot
    /// be read). Findings without fix-its are listed in ``FixPlan/withoutFix``.
    public static func plan(_ findings: [Finding], read: (String) -> [UInt8]? = Fixer.readFile) -> FixPlan {
        var plan = FixPlan()
        var byPath: [String: [Finding]] = [:]
        for finding in findings.sorted(by: Finding.ordered) {
            if finding.fixIts.isEmpty {
                plan.withoutFix.append(finding)
            } else {
                byPath[finding.path, default: []].append(finding)
            }
        }
        for path in byPath.keys.sorted() {
            let fixes = byPath[path] ?? []
            guard let bytes = read(path) else {
                plan.skipped += fixes.map { SkippedFix(finding: $0, reason: "the file cannot be read") }
                continue
            }
            let file = fix(fixes, in: bytes, path: path)
            plan.skipped += file.skipped
            if !file.applied.isEmpty { plan.files.append(file) }
        }
        return plan
    }

    /// Reads a file's bytes, or nil.
    public static func readFile(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// Applies the fixes of `findings` (all of one file, whose bytes are `bytes`) in order, skipping a fix that
    /// overlaps one applied before it or does not fit the text.
    public static func fix(_ findings: [Finding], in bytes: [UInt8], path: String) -> FileFix {
        var result = FileFix(path: path, original: bytes, fixed: bytes)
        let lines = LineTable(bytes)
        if lines.hasLoneCarriageReturn {
            result.skipped = findings.map {
                SkippedFix(finding: $0, reason: "the file has old Mac (CR-only) line endings")
            }
            return result
        }
        // The edits taken so far, sorted by place and never overlapping, with the finding each came from.
        var accepted = AcceptedEdits()
        for finding in findings.sorted(by: Finding.ordered) where !finding.fixIts.isEmpty {
            var edits: [ByteEdit] = []
            var reason: String?
            for fixIt in finding.fixIts {
                guard let start = lines.offset(line: fixIt.line, column: fixIt.column),
                    let end = lines.offset(line: fixIt.endLine, column: fixIt.endColumn), start <= end
                else {
                    reason = "its edit at \(fixIt.line):\(fixIt.column) does not fit the file (changed since the scan?)"
                    break
                }
                let edit = ByteEdit(
                    start: start, end: end, replacement: lines.withLineEnding(Array(fixIt.replacement.utf8)))
                if edits.contains(where: { $0.conflicts(with: edit) }) {
                    reason = "its own edits overlap"
                    break
                }
                if !edits.contains(edit) { edits.append(edit) }
            }
            if reason == nil {
                for edit in edits {
                    if let other = accepted.conflict(with: edit) {
                        reason =
                            "its edits overlap those of the \(other.rule) fix at \(other.line):\(other.column), "
                            + "applied first; run --fix again to apply it"
                        break
                    }
                }
            }
            if let reason {
                result.skipped.append(SkippedFix(finding: finding, reason: reason))
                continue
            }
            for edit in edits where !accepted.contains(edit) {
                accepted.insert(edit, from: finding)
            }
            result.applied.append(finding)
        }
        let edits = accepted.edits
        var fixed: [UInt8] = []
        fixed.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.replacement.count })
        var position = 0
        for edit in edits {
            fixed += bytes[position..<edit.start]
            fixed += edit.replacement
            position = edit.end
        }
        fixed += bytes[position...]
        result.fixed = fixed
        result.changes = changes(edits, lines: lines, bytes: bytes)
        return result
    }

    /// The changed lines of the file, from the edits: the old lines each edit touches and their new text, with
    /// the lines that stayed the same at either end left out.
    static func changes(_ edits: [ByteEdit], lines: LineTable, bytes: [UInt8]) -> [LineChange] {
        // Group the edits by the lines they touch: edits on a shared line are one change.
        var groups: [(first: Int, last: Int, edits: [ByteEdit])] = []
        for edit in edits {
            let first = lines.index(of: edit.start)
            let last = max(first, lines.index(of: edit.end))
            if let previous = groups.last, first <= previous.last {
                groups[groups.count - 1].last = max(previous.last, last)
                groups[groups.count - 1].edits.append(edit)
            } else {
                groups.append((first, last, [edit]))
            }
        }
        var changes: [LineChange] = []
        for group in groups {
            let regionStart = lines.start(of: group.first)
            let regionEnd = lines.end(of: group.last)
            var new: [UInt8] = []
            var position = regionStart
            for edit in group.edits {
                new += bytes[position..<edit.start]
                new += edit.replacement
                position = edit.end
            }
            new += bytes[position..<regionEnd]
            var oldLines = LineTable.split(Array(bytes[regionStart..<regionEnd]))
            var newLines = LineTable.split(new)
            var first = group.first
            while let old = oldLines.first, old == newLines.first {
                oldLines.removeFirst()
                newLines.removeFirst()
                first += 1
            }
            while let old = oldLines.last, old == newLines.last {
                oldLines.removeLast()
                newLines.removeLast()
            }
            if oldLines.isEmpty && newLines.isEmpty { continue }
            // Changes on consecutive lines are one block, its old lines first, as `diff` prints them.
            if let previous = changes.last, previous.oldEnd == first {
                changes[changes.count - 1].oldLines += oldLines
                changes[changes.count - 1].newLines += newLines
            } else {
                changes.append(LineChange(oldStart: first, oldLines: oldLines, newLines: newLines))
            }
        }
        return changes
    }

    /// A unified diff of the changes to one file, `--- a/path` / `+++ b/path` and hunks with
    /// ``contextLines`` lines of context, which `git apply` and `patch -p1` accept. A path with a space gets a
    /// tab after it, as `git diff` prints it, so that `patch` reads the whole name.
    static func unifiedDiff(path: String, original: [UInt8], changes: [LineChange]) -> [UInt8] {
        guard !changes.isEmpty else { return [] }
        let oldLines = LineTable.split(original)
        let name = diffName(path)
        let tab = name.contains(" ") ? "\t" : ""
        var out = Array("--- a/\(name)\(tab)\n+++ b/\(name)\(tab)\n".utf8)
        var delta = 0
        var index = 0
        while index < changes.count {
            // The changes of one hunk: those whose context would touch or overlap.
            var end = index
            while end + 1 < changes.count,
                changes[end + 1].oldStart - changes[end].oldEnd <= 2 * contextLines
            {
                end += 1
            }
            let hunk = changes[index...end]
            let oldStart = max(0, hunk.first!.oldStart - contextLines)
            let oldEnd = min(oldLines.count, hunk.last!.oldEnd + contextLines)
            let hunkDelta = hunk.reduce(0) { $0 + $1.newLines.count - $1.oldLines.count }
            let oldCount = oldEnd - oldStart
            let newCount = oldCount + hunkDelta
            let newStart = oldStart + delta
            out += Array(
                "@@ -\(oldCount == 0 ? oldStart : oldStart + 1),\(oldCount) "
                    .utf8)
            out += Array("+\(newCount == 0 ? newStart : newStart + 1),\(newCount) @@\n".utf8)
            var position = oldStart
            for change in hunk {
                for line in oldLines[position..<change.oldStart] { emit(" ", line, into: &out) }
                for line in change.oldLines { emit("-", line, into: &out) }
                for line in change.newLines { emit("+", line, into: &out) }
                position = change.oldEnd
            }
            for line in oldLines[position..<oldEnd] { emit(" ", line, into: &out) }
            delta += hunkDelta
            index = end + 1
        }
        return out
    }

    private static func emit(_ prefix: Character, _ line: [UInt8], into out: inout [UInt8]) {
        out.append(prefix.asciiValue ?? 32)
        out += line
        if line.last != UInt8(ascii: "\n") { out += Array("\n\\ No newline at end of file\n".utf8) }
    }

    /// The path the diff names: relative to the current directory when the file is inside it, otherwise its
    /// absolute path without the leading `/` (apply such a diff from `/`).
    static func diffName(_ path: String, currentDirectory: String = FileManager.default.currentDirectoryPath)
        -> String
    {
        let absolute =
            path.hasPrefix("/")
            ? path : (currentDirectory as NSString).appendingPathComponent(path)
        let standard = (absolute as NSString).standardizingPath
        let base = (currentDirectory as NSString).standardizingPath
        let prefix = base.hasSuffix("/") ? base : base + "/"
        if standard.hasPrefix(prefix) { return String(standard.dropFirst(prefix.count)) }
        return String(standard.drop(while: { $0 == "/" }))
    }

    /// Writes `bytes` to `path` atomically: a temporary file in the same directory with the file's permissions,
    /// then renamed over it, so that a reader sees the old text or the new one, never a part. A symbolic link is
    /// followed: the file it points to is replaced, the link stays.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let attributes = try? FileManager.default.attributesOfItem(atPath: target)
        let permissions = (attributes?[.posixPermissions] as? NSNumber)?.uint16Value ?? 0o644
        let directory = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(".\(name).timerkit-audit-\(UUID().uuidString)")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode_t(permissions))
        guard descriptor >= 0 else { throw FixWriteError(path: path, operation: "create a temporary file", errno) }
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += count
            }
        }
        if failure == 0 {
            _ = fchmod(descriptor, mode_t(permissions))
            if fsync(descriptor) != 0 { failure = errno }
        }
        close(descriptor)
        if failure == 0, rename(temporary, target) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw FixWriteError(path: path, operation: "write", failure)
        }
    }
}

/// What `--fix` would do, or did, over the scan.
public struct FixPlan: Sendable {
    /// The files with at least one fix applied, in path order.
    public var files: [FileFix] = []
    /// Fixes not applied, with the reason.
    public var skipped: [SkippedFix] = []
    /// Findings with no exact fix-it: left as they are.
    public var withoutFix: [Finding] = []

    /// Creates an empty plan.
    public init() {}

    /// The findings whose fixes are applied.
    public var applied: [Finding] { files.flatMap(\.applied) }

    /// The unified diff of every file, in path order.
    public var diff: String { files.map(\.diff).joined() }
}

/// The fixes of one file.
public struct FileFix: Sendable {
    /// The file, as the finding names it.
    public var path: String
    /// The text as read.
    public var original: [UInt8]
    /// The text with the applied fixes.
    public var fixed: [UInt8]
    /// The findings whose fixes are applied, in order.
    public var applied: [Finding] = []
    /// The fixes not applied, with the reason.
    public var skipped: [SkippedFix] = []
    /// The changed lines.
    var changes: [LineChange] = []

    /// The file's unified diff (empty when nothing changes).
    public var diff: String {
        String(decoding: Fixer.unifiedDiff(path: path, original: original, changes: changes), as: UTF8.self)
    }

    /// Writes the fixed text over the file, atomically.
    public func write() throws {
        try Fixer.writeAtomically(fixed, to: path)
    }
}

/// A fix that was not applied.
public struct SkippedFix: Sendable, Hashable {
    /// The finding.
    public var finding: Finding
    /// Why its fix was not applied.
    public var reason: String
}

/// A file that `--fix --write` could not write.
public struct FixWriteError: Error, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What failed.
    public var description: String

    init(path: String, operation: String, _ code: Int32) {
        self.path = path
        description = "\(path): cannot \(operation): \(String(cString: strerror(code)))"
    }
}

/// One exact edit in byte offsets: replace `start..<end` (equal: insert).
struct ByteEdit: Hashable {
    var start: Int
    var end: Int
    var replacement: [UInt8]

    /// Whether the two edits cannot both be applied in a well-defined way: ranges that share a byte, two
    /// different insertions at one place, or an insertion strictly inside a replaced range.
    func conflicts(with other: ByteEdit) -> Bool {
        if self == other { return false }
        if start == end && other.start == other.end { return start == other.start }
        if start == end { return other.start < start && start < other.end }
        if other.start == other.end { return start < other.start && other.start < end }
        return start < other.end && other.start < end
    }
}

/// The edits a file's fixes have taken, sorted by (start, end) and pairwise without conflict, so that the
/// edits a new one could conflict with or equal are found by binary search among a few neighbours: a file with
/// thousands of fixes is planned in n log n, not n².
struct AcceptedEdits {
    private(set) var edits: [ByteEdit] = []
    private var owners: [Finding] = []

    /// The first index whose edit ends at or after `offset`: ends rise with starts, the edits never overlapping.
    private func firstEnding(atOrAfter offset: Int) -> Int {
        var low = 0
        var high = edits.count
        while low < high {
            let middle = (low + high) / 2
            if edits[middle].end < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The indices of the edits that touch `edit`'s range (the only ones that can conflict with it or equal it).
    private func neighbours(of edit: ByteEdit) -> Range<Int> {
        let first = firstEnding(atOrAfter: edit.start)
        var last = first
        while last < edits.count, edits[last].start <= edit.end { last += 1 }
        return first..<last
    }

    /// The finding whose edit `edit` conflicts with, if any.
    func conflict(with edit: ByteEdit) -> Finding? {
        neighbours(of: edit).first { edits[$0].conflicts(with: edit) }.map { owners[$0] }
    }

    func contains(_ edit: ByteEdit) -> Bool {
        neighbours(of: edit).contains { edits[$0] == edit }
    }

    /// Adds an edit that conflicts with none, after the edits that sort before it or equal to it (found by
    /// binary search; the insertion itself moves the edits after it).
    mutating func insert(_ edit: ByteEdit, from owner: Finding) {
        var low = 0
        var high = edits.count
        while low < high {
            let middle = (low + high) / 2
            if (edits[middle].start, edits[middle].end) > (edit.start, edit.end) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        edits.insert(edit, at: low)
        owners.insert(owner, at: low)
    }
}

/// Old lines `oldStart..<oldStart + oldLines.count` (0-based) become `newLines`; each line keeps its line end.
struct LineChange: Equatable {
    var oldStart: Int
    var oldLines: [[UInt8]]
    var newLines: [[UInt8]]

    var oldEnd: Int { oldStart + oldLines.count }
}

/// Where each line of a text starts, with lines ending at `\n` (a `\r\n` is part of its line), as swift-syntax
/// and clang count them.
struct LineTable {
    /// The offset of each line's first byte; a text ending with `\n` has a last, empty line at its end.
    private(set) var starts: [Int] = [0]
    let count: Int
    /// The line end new text gets: the text's first (`\r\n` in a Windows file), `\n` otherwise.
    let usesCRLF: Bool
    /// Whether a `\r` not followed by `\n` occurs (old Mac line endings, which Swift counts as line breaks).
    private(set) var hasLoneCarriageReturn = false

    init(_ bytes: [UInt8]) {
        count = bytes.count
        var firstIsCRLF: Bool?
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                starts.append(index + 1)
                if firstIsCRLF == nil { firstIsCRLF = index > 0 && bytes[index - 1] == UInt8(ascii: "\r") }
            } else if byte == UInt8(ascii: "\r"), index + 1 == bytes.count || bytes[index + 1] != UInt8(ascii: "\n") {
                hasLoneCarriageReturn = true
            }
        }
        usesCRLF = firstIsCRLF ?? false
        self.bytes = bytes
    }

    private let bytes: [UInt8]

    /// The byte offset of a 1-based line and column (UTF-8 bytes), or nil when the place is not in the text:
    /// past its line's end (before the `\n`), past the last line, or inside a character.
    func offset(line: Int, column: Int) -> Int? {
        guard line >= 1, line <= starts.count, column >= 1 else { return nil }
        let start = starts[line - 1]
        let contentEnd = line < starts.count ? starts[line] - 1 : count
        guard column - 1 <= contentEnd - start else { return nil }
        let offset = start + column - 1
        return offset < count && bytes[offset] & 0xC0 == 0x80 ? nil : offset
    }

    /// The 0-based line of a byte offset.
    func index(of offset: Int) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    func start(of line: Int) -> Int { starts[line] }

    func end(of line: Int) -> Int { line + 1 < starts.count ? starts[line + 1] : count }

    /// `text` with each `\n` made `\r\n` in a Windows file.
    func withLineEnding(_ text: [UInt8]) -> [UInt8] {
        guard usesCRLF else { return text }
        var result: [UInt8] = []
        for (index, byte) in text.enumerated() {
            if byte == UInt8(ascii: "\n"), index == 0 || text[index - 1] != UInt8(ascii: "\r") {
                result.append(UInt8(ascii: "\r"))
            }
            result.append(byte)
        }
        return result
    }

    /// The lines of `bytes`, each with its `\n` (the last one without, when the text does not end with one).
    static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            lines.append(Array(bytes[start...index]))
            start = index + 1
        }
        if start < bytes.count { lines.append(Array(bytes[start...])) }
        return lines
    }
}
