import Foundation

/// How this process was started: its arguments, its working directory, and the `swift run` command that
/// builds and runs the same binary with the same arguments from there.
struct Invocation: Codable, Sendable {
    /// The process's arguments as it received them (`argv`, the binary first).
    var arguments: [String]
    /// The working directory.
    var directory: String
    /// `swift run -c <configuration> [--package-path P] [--scratch-path S] timerkit-bench <arguments>` when
    /// the binary sits in a SwiftPM build directory of a package, else the arguments themselves, quoted.
    var command: String

    static func current() -> Invocation {
        let arguments = CommandLine.arguments
        let directory = FileManager.default.currentDirectoryPath
        let quoted = arguments.dropFirst().map(shellQuoted)
        let binary = arguments.first ?? "timerkit-bench"
        guard let swiftRun = swiftRunPrefix(binary: binary, directory: directory) else {
            return Invocation(
                arguments: arguments, directory: directory,
                command: ([shellQuoted(binary)] + quoted).joined(separator: " "))
        }
        return Invocation(
            arguments: arguments, directory: directory, command: ([swiftRun] + quoted).joined(separator: " "))
    }

    /// The `swift run …` words that run `binary`, if it is `<package>/<scratch>/[<triple>/]<configuration>/<name>`.
    private static func swiftRunPrefix(binary: String, directory: String) -> String? {
        guard binary.contains("/") else { return nil }
        let here = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL.resolvingSymlinksInPath()
        let executable = URL(fileURLWithPath: binary, relativeTo: here).standardizedFileURL.resolvingSymlinksInPath()
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
                let packagePath = relativePath(package, from: here)
                if packagePath != "." { words += ["--package-path", shellQuoted(packagePath)] }
                if scratch.lastPathComponent != ".build" {
                    words += ["--scratch-path", shellQuoted(relativePath(scratch, from: here))]
                }
                return (words + [shellQuoted(name)]).joined(separator: " ")
            }
            scratch = scratch.deletingLastPathComponent()
        }
        return nil
    }

    /// `url`'s path relative to `base` when it is inside it, else absolute.
    private static func relativePath(_ url: URL, from base: URL) -> String {
        let path = url.standardizedFileURL.path
        let basePath = base.standardizedFileURL.path
        if path == basePath { return "." }
        let prefix = basePath.hasSuffix("/") ? basePath : basePath + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// `word` as a POSIX shell reads it back: unchanged when it has only safe characters, else single-quoted.
func shellQuoted(_ word: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,=:+@%")
    if !word.isEmpty, word.allSatisfy(safe.contains) { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
