import Foundation

/// Expands the command line's paths into the files to scan.
///
/// Directories are walked recursively in name order. Directories whose names start with `.` (`.build`,
/// `.git`, `.swiftpm`) and the dependency folders in ``skippedDirectoryNames`` are skipped, and symbolic
/// links to directories are not followed (no loops). Files named on the command line are always scanned.
public enum FileWalker {
    /// Folders of other people's code or build output, never entered when walking a directory.
    public static let skippedDirectoryNames: Set<String> = ["Pods", "Carthage", "DerivedData", "node_modules"]

    /// The endings scanned: Swift and Objective-C.
    public static let extensions: Set<String> = ["swift", "m", "mm", "h"]

    /// The files below `paths`, and the paths that do not exist.
    public static func files(in paths: [String]) -> (files: [String], missing: [String]) {
        let found = scan(paths)
        return (found.files, found.missing)
    }

    /// The files below `paths`, the paths that do not exist, and the directories that could not be listed.
    public static func scan(_ paths: [String]) -> (files: [String], missing: [String], unreadable: [String]) {
        scan(paths) { try FileManager.default.contentsOfDirectory(atPath: $0) }
    }

    /// ``scan(_:)`` with the directory listing passed in (tests make it fail, which permissions cannot do
    /// for root).
    static func scan(_ paths: [String], listing: (String) throws -> [String]) -> (
        files: [String], missing: [String], unreadable: [String]
    ) {
        var files: [String] = []
        var missing: [String] = []
        var unreadable: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                missing.append(path)
                continue
            }
            if isDirectory.boolValue {
                walk(path, manager: manager, listing: listing, into: &files, unreadable: &unreadable)
            } else {
                files.append(path)
            }
        }
        return (files, missing, unreadable)
    }

    /// The language of a path by its ending, or nil for a file that is neither Swift nor Objective-C.
    public static func language(of path: String) -> SourceLanguage? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...] {
        case "swift": return .swift
        case "m", "mm", "h": return .objectiveC
        default: return nil
        }
    }

    private static func walk(
        _ directory: String, manager: FileManager, listing: (String) throws -> [String], into files: inout [String],
        unreadable: inout [String]
    ) {
        guard let names = try? listing(directory) else {
            unreadable.append(directory)
            return
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        for name in names.sorted() {
            let path = prefix + name
            guard let type = try? manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType else {
                continue
            }
            switch type {
            case .typeDirectory:
                if !name.hasPrefix("."), !skippedDirectoryNames.contains(name) {
                    walk(path, manager: manager, listing: listing, into: &files, unreadable: &unreadable)
                }
            case .typeRegular, .typeSymbolicLink:
                var isDirectory: ObjCBool = false
                if language(of: name) != nil, manager.fileExists(atPath: path, isDirectory: &isDirectory),
                    !isDirectory.boolValue
                {
                    files.append(path)
                }
            default:
                continue
            }
        }
    }
}
