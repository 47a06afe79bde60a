import Foundation

/// How this process was started, with every path relative to the repository root: the report is
/// committed, so it must not name the directories of the machine it ran on.
struct Invocation: Codable, Sendable {
    /// The process's arguments (`argv`, the binary first), each path shown relative to the repository root.
    var arguments: [String]
    /// The working directory, relative to the repository root (`.` for the root itself).
    var directory: String
    /// The command that builds and runs the same binary with the same arguments from the repository root:
    /// `swift run -c <configuration> --package-path Benchmarks [--scratch-path S] timerkit-bench <arguments>`
    /// when the binary sits in a SwiftPM build directory of the package, else the arguments themselves.
    var command: String

    static func current() -> Invocation {
        let paths = RepositoryPaths.current
        let arguments = CommandLine.arguments
        let binary = arguments.first ?? "timerkit-bench"
        let shown = [paths.display(binary)] + arguments.dropFirst().map(paths.displayArgument)
        let quoted = shown.dropFirst().map(shellQuoted)
        let directory = paths.display(FileManager.default.currentDirectoryPath)
        guard let swiftRun = swiftRunPrefix(binary: binary, paths: paths) else {
            return Invocation(
                arguments: shown, directory: directory,
                command: ([shellQuoted(shown[0])] + quoted).joined(separator: " "))
        }
        return Invocation(
            arguments: shown, directory: directory, command: ([swiftRun] + quoted).joined(separator: " "))
    }

    /// The `swift run …` words that run `binary`, if it is `<package>/<scratch>/[<triple>/]<configuration>/<name>`.
    private static func swiftRunPrefix(binary: String, paths: RepositoryPaths) -> String? {
        guard binary.contains("/") else { return nil }
        let executable = paths.resolve(binary)
        let name = executable.lastPathComponent
        let configurationDirectory = executable.deletingLastPathComponent()
        let configuration = configurationDirectory.lastPathComponent
        guard configuration == "release" || configuration == "debug" else { return nil }
        // The scratch directory is the one right below the package (whose Package.swift is beside it).
        var scratch = configurationDirectory.deletingLastPathComponent()
        for _ in 0..<2 {
            let package = scratch.deletingLastPathComponent()
            if FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path) {
                var words = ["swift", "run", "-c", configuration]
                let packagePath = paths.display(package.path)
                if packagePath != "." { words += ["--package-path", shellQuoted(packagePath)] }
                if scratch.lastPathComponent != ".build" {
                    words += ["--scratch-path", shellQuoted(paths.display(scratch.path))]
                }
                return (words + [shellQuoted(name)]).joined(separator: " ")
            }
            scratch = scratch.deletingLastPathComponent()
        }
        return nil
    }
}

/// Shows paths relative to the repository root (the directory holding `Benchmarks/Package.swift`), so that
/// nothing the tool writes names the machine's directories; a path outside the repository is shown as
/// `<outside the repository>/` and its last component.
struct RepositoryPaths: Sendable {
    /// The repository root, absolute and standardised.
    let root: URL

    /// The root of the repository this tool was built from, when it is still there; else the working
    /// directory (or its parent, when that is the `Benchmarks` package).
    static let current: RepositoryPaths = {
        let fileManager = FileManager.default
        // Sources/timerkit-bench/Invocation.swift: four levels up is the repository.
        let built = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let here = URL(fileURLWithPath: fileManager.currentDirectoryPath, isDirectory: true)
        for candidate in [built, here, here.deletingLastPathComponent()]
        where fileManager.fileExists(atPath: candidate.appendingPathComponent("Benchmarks/Package.swift").path) {
            return RepositoryPaths(root: candidate.standardizedFileURL.resolvingSymlinksInPath())
        }
        return RepositoryPaths(root: here.standardizedFileURL.resolvingSymlinksInPath())
    }()

    /// The absolute location of `path` (relative paths are taken from the working directory).
    func resolve(_ path: String) -> URL {
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return URL(fileURLWithPath: path, relativeTo: here).standardizedFileURL.resolvingSymlinksInPath()
    }

    /// `path` relative to the root (`.` for the root), or `<outside the repository>/<last component>`.
    func display(_ path: String) -> String {
        let absolute = resolve(path).path
        let rootPath = root.path
        if absolute == rootPath { return "." }
        let prefix = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
        if absolute.hasPrefix(prefix) { return String(absolute.dropFirst(prefix.count)) }
        return "<outside the repository>/" + URL(fileURLWithPath: absolute).lastPathComponent
    }

    /// A command-line argument: shown with ``display(_:)`` when it is an absolute path, else unchanged.
    func displayArgument(_ argument: String) -> String {
        argument.hasPrefix("/") ? display(argument) : argument
    }
}

/// `word` as a POSIX shell reads it back: unchanged when it has only safe characters, else single-quoted.
func shellQuoted(_ word: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,=:+@%")
    if !word.isEmpty, word.allSatisfy(safe.contains) { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
